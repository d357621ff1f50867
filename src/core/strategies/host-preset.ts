import { HERMES_2026_07 } from '../presets/hermes-2026-07.ts';
import type { Preset } from '../presets/preset.ts';

/**
 * The live loop around other tools' strategies is current Hermes (errors, caching, usage,
 * session rules, anti-thrash gates); their messages are measured with its rough estimator.
 */
export const HOST_PRESET: Preset = HERMES_2026_07;
