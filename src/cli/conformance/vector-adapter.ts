import type { Preset } from '../../core/presets/preset.ts';

/** One case of a vector file, as in `../shared/conformance/README.md`. */
export interface VectorCase {
  name: string;
  description?: string;
  input: unknown;
  expected: unknown;
  expected_legacy_2026_04?: unknown;
  [key: string]: unknown;
}

export interface VectorFile {
  schema?: string;
  function_under_test?: string;
  notes?: string[];
  cases: VectorCase[];
  [key: string]: unknown;
}

/**
 * Runs one vector case through the real core code and returns the value to compare
 * with the case's expected value (deep equality, see `deep-equal.ts`).
 *
 * `expected` is passed so an adapter for a file whose expected value is a projection
 * (e.g. only some fields of a message) can shape `actual` the same way; it must never
 * be copied into the result.
 */
export interface VectorAdapter {
  run(testCase: VectorCase, preset: Preset, expected: unknown): unknown | Promise<unknown>;
}
