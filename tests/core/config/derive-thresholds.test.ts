import { describe, expect, it } from 'vitest';
import { adapter } from '#cli/conformance/adapters/thresholds.ts';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { coerceMaxTokens, deriveThresholds } from '#core/config/derive-thresholds.ts';
import { hermesVectorRuns, runAdapter } from '../shared/load-hermes-vectors.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const config = (overrides: Partial<typeof DEFAULT_COMPRESSION_CONFIG>) => ({
  ...DEFAULT_COMPRESSION_CONFIG,
  ...overrides,
});

describe('deriveThresholds', () => {
  it.each(hermesVectorRuns('thresholds.json').filter((run) => !('turns' in (run.testCase.input as object))))(
    'matches the Hermes vector $name',
    (run) => {
      expect(runAdapter(adapter, run)).toEqual(run.expected);
    },
  );

  it('gives 150000 / 30000 / 10000 for a 200K window at defaults in 2026-07', () => {
    expect(deriveThresholds(DEFAULT_COMPRESSION_CONFIG, HERMES_2026_07)).toMatchObject({
      effectiveThresholdPercent: 0.75,
      thresholdTokens: 150_000,
      tailTokenBudget: 30_000,
      maxSummaryTokens: 10_000,
    });
  });

  it('gives 100000 / 20000 / 10000 for the same window in 2026-04', () => {
    expect(deriveThresholds(DEFAULT_COMPRESSION_CONFIG, HERMES_2026_04)).toMatchObject({
      effectiveThresholdPercent: 0.5,
      thresholdTokens: 100_000,
      tailTokenBudget: 20_000,
      maxSummaryTokens: 10_000,
    });
  });

  it('keeps the 64K minimum even when it swallows a small window in 2026-04, but not in 2026-07', () => {
    expect(deriveThresholds(config({ contextLength: 32_000 }), HERMES_2026_04).thresholdTokens).toBe(64_000);
    expect(deriveThresholds(config({ contextLength: 32_000 }), HERMES_2026_07).thresholdTokens).toBe(27_200);
  });

  it('reserves max_tokens out of the window only in 2026-07', () => {
    const reserved = config({ contextLength: 1_000_000, maxTokens: 32_000 });
    expect(deriveThresholds(reserved, HERMES_2026_07)).toMatchObject({
      thresholdTokens: 484_000,
      reservedOutputTokens: 32_000,
    });
    expect(deriveThresholds(reserved, HERMES_2026_04)).toMatchObject({
      thresholdTokens: 500_000,
      reservedOutputTokens: null,
    });
  });

  it('clamps the target ratio to [0.10, 0.80]', () => {
    expect(deriveThresholds(config({ targetRatio: 0.95 }), HERMES_2026_07).targetRatio).toBe(0.8);
    expect(deriveThresholds(config({ targetRatio: 0 }), HERMES_2026_04).targetRatio).toBe(0.1);
  });

  it('keeps the configured percentage next to the floored one', () => {
    const derived = deriveThresholds(config({ thresholdPercent: 0.6 }), HERMES_2026_07);
    expect([derived.configuredThresholdPercent, derived.effectiveThresholdPercent]).toEqual([0.6, 0.75]);
  });
});

describe('coerceMaxTokens', () => {
  it('accepts only positive integers, truncating fractions', () => {
    expect([coerceMaxTokens(4096), coerceMaxTokens(10.9), coerceMaxTokens(0), coerceMaxTokens(-5)]).toEqual([
      4096,
      10,
      null,
      null,
    ]);
    expect([coerceMaxTokens(null), coerceMaxTokens('4096'), coerceMaxTokens(NaN)]).toEqual([
      null,
      null,
      null,
    ]);
  });
});
