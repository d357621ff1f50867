import { describe, expect, it } from 'vitest';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import { STRATEGIES } from '#core/strategies/strategy-registry.ts';
import { isCompactionModeChoice, resolveCompactionMode } from '#core/sessions/compaction-mode.ts';

describe('resolveCompactionMode', () => {
  it('follows the preset: 2026-07 compacts in place (Hermes since 2026-06-24), 2026-04 rotates', () => {
    expect(resolveCompactionMode('preset', HERMES_2026_07)).toBe('in-place');
    expect(resolveCompactionMode('preset', HERMES_2026_04)).toBe('rotate');
  });

  it('lets the setting override either preset', () => {
    for (const preset of [HERMES_2026_04, HERMES_2026_07]) {
      expect(resolveCompactionMode('in-place', preset)).toBe('in-place');
      expect(resolveCompactionMode('rotate', preset)).toBe('rotate');
    }
  });

  it('gives other tools’ strategies their host preset’s mode', () => {
    for (const strategy of STRATEGIES)
      expect(resolveCompactionMode('preset', strategy.preset)).toBe(strategy.preset.sessions.compaction);
  });

  it('accepts only the three choices as a stored setting', () => {
    expect(['preset', 'in-place', 'rotate'].every(isCompactionModeChoice)).toBe(true);
    expect([undefined, 'inplace', 3, null].some(isCompactionModeChoice)).toBe(false);
  });
});
