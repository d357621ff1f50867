import { describe, expect, it } from 'vitest';
import { estimateUsageCost, costUsdNumber } from '#core/usage/estimate-usage-cost.ts';
import { usageWithoutCache } from '#core/usage/usage-without-cache.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';

const usage = {
  inputTokens: 1000,
  outputTokens: 100,
  cacheReadTokens: 9000,
  cacheWriteTokens: 500,
  reasoningTokens: 0,
  requestCount: 1,
};

describe('usageWithoutCache', () => {
  it('bills cache reads and writes as plain input, keeping the output', () => {
    expect(usageWithoutCache(usage)).toEqual({
      ...usage,
      inputTokens: 10_500,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
  });

  it('prices higher than the cached request when reads dominate (Sonnet 4)', () => {
    const route = { provider: 'anthropic' };
    const cached = costUsdNumber(estimateUsageCost('claude-sonnet-4-20250514', usage, route, HERMES_2026_04));
    const uncached = costUsdNumber(
      estimateUsageCost('claude-sonnet-4-20250514', usageWithoutCache(usage), route, HERMES_2026_04),
    );
    // 1000×3 + 100×15 + 9000×0.3 + 500×3.75 = 9,075 µ$; uncached 10,500×3 + 100×15 = 33,000 µ$.
    expect(cached).toBeCloseTo(0.009075, 9);
    expect(uncached).toBeCloseTo(0.033, 9);
  });
});
