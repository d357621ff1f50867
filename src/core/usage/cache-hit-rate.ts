import type { CanonicalUsage } from './canonical-usage.ts';

type PromptBuckets = Pick<CanonicalUsage, 'inputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'>;

/**
 * The share of a prompt served from the provider's cache: cache reads over everything the model
 * read (uncached input + cache reads + cache writes). Null for a request that read nothing, so a
 * chart leaves a gap there instead of drawing a misleading 0%.
 *
 * @example cacheHitRate({ inputTokens: 100, cacheReadTokens: 800, cacheWriteTokens: 100 }) // 0.8
 */
export function cacheHitRate(usage: PromptBuckets): number | null {
  const prompt = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  return prompt > 0 ? usage.cacheReadTokens / prompt : null;
}
