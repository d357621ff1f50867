import type { CacheTtl } from '../caching/apply-cache-control.ts';
import { cacheSegmentsOfRequest } from '../caching/cache-segments-from-messages.ts';
import { MINIMUM_CACHEABLE_PREFIX_TOKENS, simulatePromptCache } from '../caching/simulate-prompt-cache.ts';
import type { Preset } from '../presets/preset.ts';
import type { Message } from '../transcript/message.ts';
import type { CompactionCacheFigures } from './compaction-cache-figures.ts';

export interface SimulateCompactionCacheInput {
  /** The messages of the last request before the compaction. */
  before: readonly Message[];
  /** The messages after the compaction. */
  after: readonly Message[];
  countTokens: (message: Message) => number;
  /** Whether the route caches prompts at all (`resolveCachePolicy(…).shouldCache`). */
  caching: boolean;
  ttl: CacheTtl;
  preset: Preset;
  /** Markers on content blocks (native Anthropic) or on the message envelope (OpenRouter). */
  nativeLayout?: boolean;
  minimumCacheableTokens?: number;
}

/** The first request after the compaction follows the last one before it well inside any TTL. */
const SECONDS_BETWEEN_REQUESTS = 1;

/**
 * The cache figures of a replayed compaction, from the cache simulator's model of Anthropic's
 * prefix cache (`simulatePromptCache`): the last request before the compaction is marked with
 * Hermes' `system_and_3` layout and sent to an empty cache, which writes its breakpoint prefixes;
 * the compacted request is marked the same way and sent a second later, and what it reads and
 * writes are the figures. Tool schemas, the same before and after, are left out: they would add
 * the same tokens to both sides of every difference.
 *
 * @example simulateCompactionCache({ before, after, countTokens, caching: true, ttl: '5m', preset: HERMES_2026_07 })
 */
export function simulateCompactionCache(input: SimulateCompactionCacheInput): CompactionCacheFigures {
  const { before, after, countTokens, ttl, preset } = input;
  const options = { ttl, nativeLayout: input.nativeLayout ?? true };
  const minimum = input.minimumCacheableTokens ?? MINIMUM_CACHEABLE_PREFIX_TOKENS;
  const beforeSegments = cacheSegmentsOfRequest(before, options, preset, countTokens);
  const afterSegments = cacheSegmentsOfRequest(after, options, preset, countTokens);
  const tokensBefore = beforeSegments.reduce((sum, segment) => sum + segment.tokens, 0);
  const tokensAfter = afterSegments.reduce((sum, segment) => sum + segment.tokens, 0);
  if (!input.caching) {
    return {
      tokensBefore,
      tokensAfter,
      cachedTokensBefore: 0,
      cachedTokensAfter: 0,
      rewriteTokens: 0,
      source: 'simulation',
    };
  }
  const last = simulatePromptCache(beforeSegments, {}, 0, minimum);
  const next = simulatePromptCache(afterSegments, last.nextState, SECONDS_BETWEEN_REQUESTS * 1000, minimum);
  return {
    tokensBefore,
    tokensAfter,
    cachedTokensBefore: last.cacheReadTokens + last.cacheWriteTokens,
    cachedTokensAfter: next.cacheReadTokens,
    rewriteTokens: next.cacheWriteTokens,
    source: 'simulation',
  };
}
