/** The Hermes generations Context Lab reproduces. `hermes-2026-04` is the default. */
export const PRESET_NAMES = ['hermes-2026-04', 'hermes-2026-07'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];
export const DEFAULT_PRESET: PresetName = 'hermes-2026-04';

export const isPresetName = (value: string): value is PresetName =>
  (PRESET_NAMES as readonly string[]).includes(value);
