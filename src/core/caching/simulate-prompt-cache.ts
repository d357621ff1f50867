import type { CacheTtl } from './apply-cache-control.ts';
import { MAX_CACHE_BREAKPOINTS } from './apply-cache-control.ts';

/**
 * A deterministic model of Anthropic's prefix cache, shared by the mock provider server and the
 * app's offline cache-savings projection. Provider facts from peers.md §0 item 5 and Anthropic's
 * prompt-caching docs:
 * - a breakpoint (`cache_control`) caches the whole prefix up to and including its block;
 * - at most 4 breakpoints per request;
 * - a read looks for a previously written prefix at the breakpoint or up to 20 blocks before it;
 * - prefixes shorter than the model's minimum are never cached (1,024 tokens for Sonnet/Opus,
 *   the conservative end of the 512–4,096 range);
 * - an entry lives 5 minutes or 1 hour, refreshed on every hit.
 */
export const CACHE_LOOKBACK_BLOCKS = 20;
export const MINIMUM_CACHEABLE_PREFIX_TOKENS = 1024;
export const FIVE_MINUTE_TTL_MS = 5 * 60 * 1000;
export const ONE_HOUR_TTL_MS = 60 * 60 * 1000;

export interface CacheSegment {
  /** The block's exact serialised content: prefixes are identified by hashing these. */
  text: string;
  tokens: number;
  /** A `cache_control` breakpoint ends at this block. */
  breakpoint: boolean;
  /** Lifetime of the entry written at this breakpoint (default 5m). */
  ttl?: CacheTtl;
}

/** Prefix key → expiry (epoch ms). Plain data so it can cross the worker boundary and be stored. */
export type PromptCacheState = Readonly<Record<string, number>>;

export interface PromptCacheSimulation {
  cacheReadTokens: number;
  cacheWriteTokens: number;
  uncachedInputTokens: number;
  /** Breakpoints past the fourth are ignored, as a provider would reject or drop them. */
  ignoredBreakpoints: number;
  nextState: Record<string, number>;
}

export function simulatePromptCache(
  segments: readonly CacheSegment[],
  state: PromptCacheState,
  nowMs: number,
  minimumCacheableTokens = MINIMUM_CACHEABLE_PREFIX_TOKENS,
): PromptCacheSimulation {
  const live: Record<string, number> = {};
  for (const [key, expiresAtMs] of Object.entries(state)) if (expiresAtMs > nowMs) live[key] = expiresAtMs;

  const prefixKeys: string[] = [];
  const prefixTokens: number[] = [];
  let hash = FNV_OFFSET_BASIS;
  let tokens = 0;
  segments.forEach((segment, index) => {
    hash = fnv1a(hash, `\u0000${segment.text}`);
    tokens += Math.max(0, segment.tokens);
    prefixTokens.push(tokens);
    prefixKeys.push(`${index + 1}:${tokens}:${hash.toString(16).padStart(8, '0')}`);
  });
  const totalTokens = tokens;

  const allBreakpoints = segments.flatMap((segment, index) => (segment.breakpoint ? [index] : []));
  const breakpoints = allBreakpoints.slice(0, MAX_CACHE_BREAKPOINTS);

  // Read: the longest live prefix found at a breakpoint or within the lookback window before it.
  let readEnd = -1;
  for (const breakpoint of breakpoints) {
    const earliest = Math.max(0, breakpoint - CACHE_LOOKBACK_BLOCKS);
    for (let position = breakpoint; position >= earliest && position > readEnd; position--) {
      if (live[prefixKeys[position]!] !== undefined) {
        readEnd = position;
        break;
      }
    }
  }
  const cacheReadTokens = readEnd >= 0 ? prefixTokens[readEnd]! : 0;
  if (readEnd >= 0) {
    const key = prefixKeys[readEnd]!;
    live[key] = Math.max(live[key]!, nowMs + ttlMs(segments[readEnd]!.ttl));
  }

  // Write: every breakpoint prefix long enough to cache; billed from the read point onward.
  let writeEnd = -1;
  for (const breakpoint of breakpoints) {
    if (prefixTokens[breakpoint]! < minimumCacheableTokens) continue;
    const key = prefixKeys[breakpoint]!;
    live[key] = Math.max(live[key] ?? 0, nowMs + ttlMs(segments[breakpoint]!.ttl));
    writeEnd = Math.max(writeEnd, breakpoint);
  }
  const writtenThrough = writeEnd >= 0 ? prefixTokens[writeEnd]! : 0;
  const cacheWriteTokens = Math.max(0, writtenThrough - cacheReadTokens);
  const uncachedInputTokens = totalTokens - Math.max(cacheReadTokens, writtenThrough);

  return {
    cacheReadTokens,
    cacheWriteTokens,
    uncachedInputTokens,
    ignoredBreakpoints: allBreakpoints.length - breakpoints.length,
    nextState: live,
  };
}

const ttlMs = (ttl: CacheTtl | undefined): number => (ttl === '1h' ? ONE_HOUR_TTL_MS : FIVE_MINUTE_TTL_MS);

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** 32-bit FNV-1a over UTF-16 code units, continued from `hash` so prefixes hash incrementally. */
function fnv1a(hash: number, text: string): number {
  let value = hash;
  for (let index = 0; index < text.length; index++) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, FNV_PRIME) >>> 0;
  }
  return value;
}
