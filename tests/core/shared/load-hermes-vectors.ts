import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dropUnrecordedOptionalOutputs } from '#cli/conformance/drop-unrecorded-optional-outputs.ts';
import { expectedFor } from '#cli/conformance/run-vector-file.ts';
import type { VectorAdapter, VectorCase, VectorFile } from '#cli/conformance/vector-adapter.ts';
import { ALL_PRESETS, type Preset } from '#core/presets/preset.ts';

const VECTOR_DIRECTORY = join(
  dirname(fileURLToPath(import.meta.url)),
  '../../../../shared/conformance/hermes',
);

export interface VectorRun {
  name: string;
  preset: Preset;
  testCase: VectorCase;
  expected: unknown;
}

/** Every (case, preset) pair of a Hermes vector file whose expected value is comparable. */
export function hermesVectorRuns(fileName: string): VectorRun[] {
  const file = JSON.parse(readFileSync(join(VECTOR_DIRECTORY, fileName), 'utf8')) as VectorFile;
  const runs: VectorRun[] = [];
  for (const preset of ALL_PRESETS) {
    for (const testCase of file.cases) {
      const expected = expectedFor(testCase, preset);
      const skipped =
        typeof expected === 'object' &&
        expected !== null &&
        ('not_available_in_this_version' in expected || 'raises' in expected);
      if (!skipped) runs.push({ name: `${preset.name} ${testCase.name}`, preset, testCase, expected });
    }
  }
  return runs;
}

/**
 * The adapter's result for a run, as the runner compares it: optional outputs the case does not
 * record are left out (`VectorAdapter.optionalOutputKeys`).
 */
export function runAdapter(adapter: VectorAdapter, run: VectorRun): unknown {
  const project = (actual: unknown): unknown =>
    dropUnrecordedOptionalOutputs(actual, run.expected, adapter.optionalOutputKeys ?? []);
  const actual = adapter.run(run.testCase, run.preset);
  return actual instanceof Promise ? actual.then(project) : project(actual);
}
