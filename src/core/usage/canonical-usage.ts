/**
 * Hermes' `CanonicalUsage` (hermes-reference §9): one response's tokens in provider-neutral
 * buckets. `inputTokens` is the *uncached* input; cache reads and writes are separate.
 */
export interface CanonicalUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  requestCount: number;
}

/** All zeros for one request (a response with no usage still counts as a request). */
export const EMPTY_USAGE: CanonicalUsage = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  requestCount: 1,
});

/** Everything the model read: uncached input plus cache reads and writes. */
export const promptTokens = (usage: CanonicalUsage): number =>
  usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;

export const totalTokens = (usage: CanonicalUsage): number => promptTokens(usage) + usage.outputTokens;

/** Field-wise sum, request counts included, as `CanonicalUsage.__add__`. */
export function addUsage(first: CanonicalUsage, second: CanonicalUsage): CanonicalUsage {
  return {
    inputTokens: first.inputTokens + second.inputTokens,
    outputTokens: first.outputTokens + second.outputTokens,
    cacheReadTokens: first.cacheReadTokens + second.cacheReadTokens,
    cacheWriteTokens: first.cacheWriteTokens + second.cacheWriteTokens,
    reasoningTokens: first.reasoningTokens + second.reasoningTokens,
    requestCount: first.requestCount + second.requestCount,
  };
}
