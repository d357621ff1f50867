import type { UsageTurn } from '#core/usage/usage-turn.ts';

/** A usage turn with zero buckets, overridden field by field. */
export function buildUsageTurn(overrides: Partial<UsageTurn> = {}): UsageTurn {
  return {
    sessionId: 's1',
    createdAt: 0,
    model: 'claude-sonnet-4',
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    requestCount: 1,
    costUsd: 0,
    uncachedCostUsd: 0,
    compaction: false,
    ...overrides,
  };
}
