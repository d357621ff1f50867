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

  // Each prefix's hash and size; its key is spelled out only where it is looked up or written
  // (a few dozen positions), not for every block of a long request.
  const prefixHashes = new Uint32Array(segments.length);
  const prefixTokens = new Float64Array(segments.length);
  let hash = FNV_OFFSET_BASIS;
  let tokens = 0;
  let breakpointCount = 0;
  const breakpoints: number[] = [];
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!;
    hash = fnv1a(fnv1aUnit(hash, 0), segment.text);
    tokens += Math.max(0, segment.tokens);
    prefixHashes[index] = hash;
    prefixTokens[index] = tokens;
    if (!segment.breakpoint) continue;
    breakpointCount++;
    if (breakpoints.length < MAX_CACHE_BREAKPOINTS) breakpoints.push(index);
  }
  const totalTokens = tokens;
  const prefixKey = (index: number): string =>
    `${index + 1}:${prefixTokens[index]!}:${prefixHashes[index]!.toString(16).padStart(8, '0')}`;

  // Read: the longest live prefix found at a breakpoint or within the lookback window before it.
  let readEnd = -1;
  for (const breakpoint of breakpoints) {
    const earliest = Math.max(0, breakpoint - CACHE_LOOKBACK_BLOCKS);
    for (let position = breakpoint; position >= earliest && position > readEnd; position--) {
      if (live[prefixKey(position)] !== undefined) {
        readEnd = position;
        break;
      }
    }
  }
  const cacheReadTokens = readEnd >= 0 ? prefixTokens[readEnd]! : 0;
  if (readEnd >= 0) {
    const key = prefixKey(readEnd);
    live[key] = Math.max(live[key]!, nowMs + ttlMs(segments[readEnd]!.ttl));
  }

  // Write: every breakpoint prefix long enough to cache; billed from the read point onward.
  let writeEnd = -1;
  for (const breakpoint of breakpoints) {
    if (prefixTokens[breakpoint]! < minimumCacheableTokens) continue;
    const key = prefixKey(breakpoint);
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
    ignoredBreakpoints: breakpointCount - breakpoints.length,
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

/** `fnv1a` of one code unit (the separator before each block: no `\u0000${text}` copy). */
const fnv1aUnit = (hash: number, unit: number): number => Math.imul(hash ^ unit, FNV_PRIME) >>> 0;
