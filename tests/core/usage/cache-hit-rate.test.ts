import { describe, expect, it } from 'vitest';
import { cacheHitRate } from '#core/usage/cache-hit-rate.ts';

describe('cacheHitRate', () => {
  it('divides cache reads by everything the model read', () => {
    expect(cacheHitRate({ inputTokens: 100, cacheReadTokens: 800, cacheWriteTokens: 100 })).toBe(0.8);
  });

  it('counts cache writes as misses', () => {
    expect(cacheHitRate({ inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 5000 })).toBe(0);
  });

  it('is null for a request that read nothing, not 0', () => {
    expect(cacheHitRate({ inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 })).toBeNull();
  });
});
