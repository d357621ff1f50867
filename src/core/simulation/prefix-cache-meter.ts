/**
 * The prompt cache of a simulated session, metered in constant time per request. The session
 * simulation cannot afford `simulatePromptCache` (it hashes every block of every request, which
 * is quadratic over a session of thousands of requests), so it models the same prefix cache by
 * lengths alone:
 *
 * - a request reads from the cache the prefix it shares with the previous request (tool schemas
 *   first, then messages), when the previous request cached it and it is at least the minimum
 *   cacheable length (1,024 tokens for Claude Sonnet/Opus);
 * - it writes the rest of itself (Hermes' `system_and_3` layout puts a breakpoint on its last
 *   message, so the whole request is cached for the next one) when it is long enough to cache;
 * - between two compactions a request only appends to the previous one, so the shared prefix is
 *   the whole previous request; after a compaction it is the tool schemas plus the leading
 *   messages the compaction left unchanged (the caller measures that once per compaction);
 * - entries never expire: the requests of a replayed session follow each other well inside the
 *   5-minute TTL. A prefix after a compaction is read even where no breakpoint of the new request
 *   reaches back to it within Anthropic's 20-block lookback; the system prompt always carries its
 *   own breakpoint under `system_and_3`, so the usual case (tool schemas + system prompt) is exact.
 *
 * With caching off every token is uncached.
 */
import { MINIMUM_CACHEABLE_PREFIX_TOKENS } from '../caching/simulate-prompt-cache.ts';
import type { CompactionCacheFigures } from '../ledger/compaction-cache-figures.ts';
import type { InputTokenBuckets } from '../ledger/price-input-tokens.ts';

export interface MeteredRequest extends InputTokenBuckets {
  /** All prompt tokens of the request. */
  readonly tokens: number;
}

export interface PrefixCacheMeter {
  /**
   * Meters one request of `tokens` prompt tokens whose first `sharedPrefixTokens` are identical
   * to the previous request's (pass the previous request's length when nothing but appending
   * happened in between).
   */
  request(tokens: number, sharedPrefixTokens: number): MeteredRequest;
  /** What `request` would meter, without recording it. */
  peek(tokens: number, sharedPrefixTokens: number): MeteredRequest;
  /** The previous request's length (the shared prefix of a request that only appends). */
  readonly previousTokens: number;
  /**
   * The cache figures of a compaction made right after the previous request, for the ledger: a
   * request of `tokensBefore` would have read what the previous one cached; the compacted
   * request of `tokensAfter` reads its first `sharedPrefixTokens` and writes the rest again.
   */
  compactionCache(
    tokensBefore: number,
    tokensAfter: number,
    sharedPrefixTokens: number,
  ): CompactionCacheFigures;
  /** Totals so far. */
  totals(): MeteredRequest;
}

export function createPrefixCacheMeter(
  caching: boolean,
  minimumCacheableTokens = MINIMUM_CACHEABLE_PREFIX_TOKENS,
): PrefixCacheMeter {
  let previousTokens = 0;
  /** How much of the previous request the cache holds (0 when it was too short to cache). */
  let cachedTokens = 0;
  let total = 0;
  let uncachedTotal = 0;
  let readTotal = 0;
  let writeTotal = 0;
  const meter = (tokens: number, sharedPrefixTokens: number): MeteredRequest => {
    if (!caching) return { tokens, uncached: tokens, cacheRead: 0, cacheWrite: 0 };
    const shared = Math.min(sharedPrefixTokens, cachedTokens, tokens);
    const read = shared >= minimumCacheableTokens ? shared : 0;
    const write = tokens >= minimumCacheableTokens ? tokens - read : 0;
    return { tokens, uncached: tokens - read - write, cacheRead: read, cacheWrite: write };
  };
  return {
    get previousTokens() {
      return previousTokens;
    },
    peek: meter,
    compactionCache(tokensBefore, tokensAfter, sharedPrefixTokens) {
      const next = meter(tokensAfter, sharedPrefixTokens);
      return {
        tokensBefore,
        tokensAfter,
        // Sent as it was, the request would have been cached whole for the turns after it.
        cachedTokensBefore: caching && tokensBefore >= minimumCacheableTokens ? tokensBefore : 0,
        cachedTokensAfter: next.cacheRead,
        rewriteTokens: next.cacheWrite,
        source: 'simulation',
      };
    },
    request(tokens, sharedPrefixTokens) {
      const metered = meter(tokens, sharedPrefixTokens);
      cachedTokens = metered.cacheRead + metered.cacheWrite;
      previousTokens = tokens;
      total += tokens;
      uncachedTotal += metered.uncached;
      readTotal += metered.cacheRead;
      writeTotal += metered.cacheWrite;
      return metered;
    },
    totals: () => ({ tokens: total, uncached: uncachedTotal, cacheRead: readTotal, cacheWrite: writeTotal }),
  };
}
