import type { Preset } from '../presets/preset.ts';

/** Where a committed compaction goes: the same session (archiving its rows) or a continuation. */
export type CompactionMode = Preset['sessions']['compaction'];

/** The settings choice: the preset's own mode, or one of the two forced. */
export const COMPACTION_MODE_CHOICES = ['preset', 'in-place', 'rotate'] as const;
export type CompactionModeChoice = (typeof COMPACTION_MODE_CHOICES)[number];

export const isCompactionModeChoice = (value: unknown): value is CompactionModeChoice =>
  typeof value === 'string' && (COMPACTION_MODE_CHOICES as readonly string[]).includes(value);

/**
 * The mode a compaction uses: the user's override, else the switch of the preset hosting the
 * strategy (2026-07 compacts in place, 2026-04 rotates).
 *
 * @example resolveCompactionMode('preset', HERMES_2026_07) // 'in-place'
 */
export function resolveCompactionMode(choice: CompactionModeChoice, preset: Preset): CompactionMode {
  return choice === 'preset' ? preset.sessions.compaction : choice;
}
