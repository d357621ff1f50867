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
 * Runs one vector case through the real core code and returns the value to compare with the
 * case's expected value (strict deep equality, see `deep-equal.ts`).
 *
 * An adapter never sees the expected value, and it declares everything it reads, so it cannot
 * silently skip part of a case: the runner fails a case whose input or case fields the adapter
 * did not declare, and the adapter throws on anything inside them it does not understand (an
 * unknown step kind, an unknown nested field, see `require-known-fields.ts`).
 */
export interface VectorAdapter {
  /**
   * The input keys this adapter reads for `testCase` (they may depend on the case's `function`
   * or `kind`). Any other key in `input` fails the case.
   */
  inputKeys(testCase: VectorCase): readonly string[];
  /** Case fields the adapter reads besides the standard ones (`function`, `kind`). */
  readonly caseKeys?: readonly string[];
  /**
   * Output keys that the vectors record for some cases only (diagnostic echoes such as
   * `python_str`). Each is compared when the expected value has it and left out when it does
   * not; everything else is always compared. Paths use `.` between keys, `[]` for every item of
   * a list and `*` for every key of an object: `per_message[].python_str`, `*.next_title`.
   */
  readonly optionalOutputKeys?: readonly string[];
  run(testCase: VectorCase, preset: Preset): unknown;
}

/**
 * What an adapter returns where the port refused the input the way Hermes raised on it, e.g.
 * `{raises: "TypeError: object of type 'bool' has no len()"}`, the same shape as the vectors'
 * own `raises` expectation.
 */
export interface Refusal {
  raises: string;
}
