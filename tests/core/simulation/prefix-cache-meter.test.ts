import { describe, expect, it } from 'vitest';
import { createPrefixCacheMeter } from '#core/simulation/prefix-cache-meter.ts';

describe('createPrefixCacheMeter', () => {
  it('writes a request long enough to cache, then reads it back from the next one', () => {
    const meter = createPrefixCacheMeter(true);
    expect(meter.request(5000, 0)).toEqual({ tokens: 5000, uncached: 0, cacheRead: 0, cacheWrite: 5000 });
    // The next request appends 1,000 tokens: it reads the 5,000 and writes the 1,000.
    expect(meter.request(6000, meter.previousTokens)).toEqual({
      tokens: 6000,
      uncached: 0,
      cacheRead: 5000,
      cacheWrite: 1000,
    });
    expect(meter.totals()).toEqual({ tokens: 11_000, uncached: 0, cacheRead: 5000, cacheWrite: 6000 });
  });

  it('caches nothing below the minimum prefix', () => {
    const meter = createPrefixCacheMeter(true, 1024);
    expect(meter.request(1000, 0)).toEqual({ tokens: 1000, uncached: 1000, cacheRead: 0, cacheWrite: 0 });
    // 1,000 were never cached, so the 1,500-token request reads nothing and writes itself.
    expect(meter.request(1500, 1000)).toEqual({ tokens: 1500, uncached: 0, cacheRead: 0, cacheWrite: 1500 });
  });

  it('reads only the shared prefix after a compaction and only what the cache holds', () => {
    const meter = createPrefixCacheMeter(true);
    meter.request(100_000, 0);
    // Compacted to 20,000 tokens of which the first 3,000 (tools + system prompt) are unchanged.
    expect(meter.request(20_000, 3000)).toEqual({
      tokens: 20_000,
      uncached: 0,
      cacheRead: 3000,
      cacheWrite: 17_000,
    });
    // A shared prefix longer than what was cached reads only what was cached.
    expect(meter.peek(50_000, 40_000).cacheRead).toBe(20_000);
  });

  it('describes a compaction for the ledger', () => {
    const meter = createPrefixCacheMeter(true);
    meter.request(90_000, 0);
    expect(meter.compactionCache(95_000, 20_000, 3000)).toEqual({
      tokensBefore: 95_000,
      tokensAfter: 20_000,
      cachedTokensBefore: 95_000,
      cachedTokensAfter: 3000,
      rewriteTokens: 17_000,
      source: 'simulation',
    });
  });

  it('bills everything as input with caching off', () => {
    const meter = createPrefixCacheMeter(false);
    meter.request(5000, 0);
    expect(meter.request(6000, 5000)).toEqual({ tokens: 6000, uncached: 6000, cacheRead: 0, cacheWrite: 0 });
    expect(meter.compactionCache(6000, 1000, 500)).toMatchObject({
      cachedTokensBefore: 0,
      cachedTokensAfter: 0,
      rewriteTokens: 0,
    });
  });
});
