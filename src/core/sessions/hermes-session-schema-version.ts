import type { Preset } from '../presets/preset.ts';

/**
 * The `schema_version` of Hermes' own session store (`~/.hermes/state.db`, hermes-reference
 * §11) in the generation a preset reproduces. Context Lab's IndexedDB has its own version
 * history; this number describes the Hermes data it imports and exports.
 */
export const hermesSessionSchemaVersion = (preset: Preset): number => preset.sessionSchemaVersion;
