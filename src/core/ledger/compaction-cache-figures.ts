/**
 * What a compaction does to the prompt cache, in tokens: the context before and after, and how
 * much of each the provider's prefix cache holds. Built from a real response's usage
 * (`cacheFiguresFromUsage`) or from the cache simulator (`simulateCompactionCache`); read by
 * `computeCompactionLedger`. With prompt caching off every cached figure is 0.
 */
export interface CompactionCacheFigures {
  /** Prompt tokens of the last request before the compaction (uncached input, cache reads and writes). */
  tokensBefore: number;
  /** Prompt tokens of the same context right after the compaction, before any new turn. */
  tokensAfter: number;
  /** Of `tokensBefore`, the prefix a next request without the compaction would read from the cache. */
  cachedTokensBefore: number;
  /**
   * Of `tokensAfter`, the prefix still readable after the compaction: its unchanged start (tool
   * schemas, system prompt, untouched head), when long enough to have been cached.
   */
  cachedTokensAfter: number;
  /**
   * Tokens the first request after the compaction writes to the cache because the compaction
   * changed the prefix: everything cached after the unchanged start, i.e. the kept messages,
   * which were cache reads before and now sit at new positions, and the summary, written for the
   * first time. Both are part of the compaction's cost; without it that request would only have
   * written its own new turn.
   */
  rewriteTokens: number;
  /** `usage`: a real response's figures; `simulation`: the cache simulator's model. */
  source: 'usage' | 'simulation';
}
