import type { PresetName } from '../presets/preset-name.ts';

/**
 * The `schema_version` of Hermes' own session store (`~/.hermes/state.db`, hermes-reference
 * §11) in each generation Context Lab reproduces. Context Lab's IndexedDB has its own version
 * history; this number describes the Hermes data it imports and exports.
 */
export const HERMES_SESSION_SCHEMA_VERSION: Readonly<Record<PresetName, number>> = {
  'hermes-2026-04': 8,
  'hermes-2026-07': 22,
};
