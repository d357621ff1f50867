import type { CanonicalUsage } from './canonical-usage.ts';

/**
 * The same request as if nothing had been cached: cache reads and writes billed as plain input.
 * Priced with the price table, it is the baseline that shows what prompt caching saved.
 */
export function usageWithoutCache(usage: CanonicalUsage): CanonicalUsage {
  return {
    ...usage,
    inputTokens: usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  };
}
