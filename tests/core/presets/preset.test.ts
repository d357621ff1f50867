import { describe, expect, it } from 'vitest';
import { getPreset } from '#core/presets/preset.ts';
import { PRESET_NAMES } from '#core/presets/preset-name.ts';

describe('getPreset', () => {
  it.each(PRESET_NAMES)('returns the descriptor named %s', (name) => {
    expect(getPreset(name).name).toBe(name);
  });

  it('carries the behaviour switches that separate the generations', () => {
    const april = getPreset('hermes-2026-04');
    const july = getPreset('hermes-2026-07');
    expect([april.thresholds.summaryTokensCeiling, july.thresholds.summaryTokensCeiling]).toEqual([
      12_000, 10_000,
    ]);
    expect(april.thresholds.smallWindowFloor).toBeNull();
    expect(july.thresholds.smallWindowFloor).toEqual({ windowLimitTokens: 512_000, minPercent: 0.75 });
    expect([april.boundaries.head, july.boundaries.head]).toEqual([
      'first-n-including-system',
      'system-plus-decaying-first-n',
    ]);
    expect([april.pruning.boundaryFloor, july.pruning.boundaryFloor]).toEqual(['index-max', 'count-max']);
  });
});
