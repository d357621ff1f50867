import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPRESSION_CONFIG, normalizeCacheTtl } from '#core/config/compression-config.ts';

describe('DEFAULT_COMPRESSION_CONFIG', () => {
  it("holds Hermes' defaults with a 200K window", () => {
    expect(DEFAULT_COMPRESSION_CONFIG).toMatchObject({
      enabled: true,
      contextLength: 200_000,
      thresholdPercent: 0.5,
      targetRatio: 0.2,
      protectFirstN: 3,
      protectLastN: 20,
      maxTokens: null,
      hygieneHardMessageLimit: 5000,
      abortOnSummaryFailure: false,
      cacheTtl: '5m',
      codexGpt55Autoraise: true,
    });
  });
});

describe('normalizeCacheTtl', () => {
  it('treats anything but 1h as 5m', () => {
    expect([
      normalizeCacheTtl('1h'),
      normalizeCacheTtl('5m'),
      normalizeCacheTtl('10m'),
      normalizeCacheTtl(undefined),
    ]).toEqual(['1h', '5m', '5m', '5m']);
  });
});
