import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAdapter } from '#cli/conformance/load-adapter.ts';
import { expectedFor, runVectorCase } from '#cli/conformance/run-vector-file.ts';
import type { VectorAdapter, VectorCase, VectorFile } from '#cli/conformance/vector-adapter.ts';
import { ALL_PRESETS, type Preset } from '#core/presets/preset.ts';

/**
 * No adapter may report a case as passed while ignoring part of it: for every vector file and
 * both presets, a copy of a passing case with one planted extra (an expected key, an input
 * field, a nested field, a step) must fail.
 */
const vectorsDir = resolve(import.meta.dirname, '../../../../shared/conformance/hermes');
const vectorFiles = readdirSync(vectorsDir).filter((name) => name.endsWith('.json'));
const PLANTED = 'planted_by_test';
/** Cases per file and preset whose expected value gets a planted key (each one is a real run). */
const RUNS_PER_FILE = 3;

const clone = <T>(value: T): T => structuredClone(value);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const isSkipExpectation = (expected: unknown): boolean =>
  isRecord(expected) && (expected.not_available_in_this_version === true || 'raises' in expected);

/** The first object in `value`, depth first (the value itself, or inside lists and objects). */
function firstObjectIn(value: unknown): Record<string, unknown> | null {
  if (isRecord(value)) return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = firstObjectIn(item);
      if (found) return found;
    }
  }
  return null;
}

/** A copy of the case whose expected value for `preset` has one extra key, or null if it has no object. */
function withPlantedExpectedKey(testCase: VectorCase, preset: Preset): VectorCase | null {
  const copy = clone(testCase);
  const legacyKey = Object.keys(copy).find(
    (key) => key.startsWith('expected_legacy_') && expectedFor(copy, preset) === copy[key],
  );
  const expected = clone(expectedFor(testCase, preset));
  const target = firstObjectIn(expected);
  if (!target) return null;
  target[PLANTED] = 1;
  copy[legacyKey ?? 'expected'] = expected;
  return copy;
}

/**
 * Nested input objects that adapters read field by field, per file. (Other nested objects are
 * data handed whole to the core function, e.g. a provider's raw usage object or a message.)
 */
const FIELD_BY_FIELD: Readonly<Record<string, readonly string[]>> = {
  'anti_thrash_gates.json': ['config'],
  'boundaries.json': ['config'],
  'compress_e2e.json': ['config'],
  'cost.json': ['usage'],
  'tool_result_persistence.json': ['config'],
};

/** Input lists whose records adapters read field by field, per file. */
const RECORDS_FIELD_BY_FIELD: Readonly<Record<string, readonly string[]>> = {
  'session_continuation.json': ['sessions', 'messages'],
};

/** Copies of the case with a field planted in a nested object or record, or an extra step. */
function nestedPlants(file: string, testCase: VectorCase): Array<{ where: string; copy: VectorCase }> {
  const input = testCase.input as Record<string, unknown>;
  const plants: Array<{ where: string; copy: VectorCase }> = [];
  for (const key of FIELD_BY_FIELD[file] ?? []) {
    if (!isRecord(input[key])) continue;
    const copy = clone(testCase);
    (copy.input as Record<string, Record<string, unknown>>)[key]![PLANTED] = 1;
    plants.push({ where: `input.${key}`, copy });
  }
  for (const key of RECORDS_FIELD_BY_FIELD[file] ?? []) {
    const records = input[key];
    if (!Array.isArray(records) || !isRecord(records[0])) continue;
    const copy = clone(testCase);
    (copy.input as Record<string, Array<Record<string, unknown>>>)[key]![0]![PLANTED] = 1;
    plants.push({ where: `input.${key}[0]`, copy });
  }
  if (Array.isArray(input.ops) && input.ops.length > 0) {
    const extraField = clone(testCase);
    (extraField.input as { ops: Array<Record<string, unknown>> }).ops[0]![PLANTED] = 1;
    plants.push({ where: 'a field of input.ops[0]', copy: extraField });
    const extraStep = clone(testCase);
    (extraStep.input as { ops: unknown[] }).ops.push({ op: PLANTED });
    plants.push({ where: 'an extra step in input.ops', copy: extraStep });
  }
  return plants;
}

const adapters = new Map<string, VectorAdapter>();
for (const file of vectorFiles) {
  const adapter = await loadAdapter(file);
  if (adapter) adapters.set(file, adapter);
}

describe.each(vectorFiles)('%s', (file) => {
  const vectors = JSON.parse(readFileSync(join(vectorsDir, file), 'utf8')) as VectorFile;

  it('has an adapter', () => {
    expect(adapters.get(file)).toBeDefined();
  });

  describe.each(ALL_PRESETS.map((preset) => [preset.name, preset] as const))('%s', (_name, preset) => {
    const adapter = (): VectorAdapter => adapters.get(file)!;
    const comparable = vectors.cases.filter((testCase) => !isSkipExpectation(expectedFor(testCase, preset)));

    it('fails a case with an extra key planted in its expected value', async () => {
      const planted = comparable
        .map((testCase) => withPlantedExpectedKey(testCase, preset))
        .filter((copy): copy is VectorCase => copy !== null)
        .slice(0, RUNS_PER_FILE);
      for (const copy of planted) {
        const original = await runVectorCase(
          file,
          vectors.cases.find((c) => c.name === copy.name)!,
          adapter(),
          preset,
        );
        expect(original.status, `${copy.name} passes unmodified`).toBe('passed');
        const result = await runVectorCase(file, copy, adapter(), preset);
        expect(result.status, `${copy.name} with a planted expected key`).toBe('failed');
        expect(result.reason).toContain(PLANTED);
      }
    });

    it('fails every case with an input field it does not read', async () => {
      for (const testCase of vectors.cases) {
        const copy = clone(testCase);
        (copy.input as Record<string, unknown>)[PLANTED] = 1;
        const result = await runVectorCase(file, copy, adapter(), preset);
        expect(result.status, testCase.name).toBe('failed');
        expect(result.reason).toMatch(/input: 'planted_by_test' not understood/);
      }
    });

    it('fails a case with a case field it does not read', async () => {
      const copy = { ...clone(vectors.cases[0]!), [PLANTED]: 1 };
      const result = await runVectorCase(file, copy, adapter(), preset);
      expect(result.status).toBe('failed');
      expect(result.reason).toMatch(/case: 'planted_by_test' not understood/);
    });

    it('fails a case with an extra nested field or step', async () => {
      for (const testCase of comparable) {
        for (const { where, copy } of nestedPlants(file, testCase)) {
          const result = await runVectorCase(file, copy, adapter(), preset);
          expect(result.status, `${testCase.name}: ${where}`).toBe('failed');
          expect(result.reason, `${testCase.name}: ${where}`).toContain(PLANTED);
        }
      }
    });
  });
});

describe('optional outputs (token_estimates python_str)', () => {
  const file = 'token_estimates.json';
  const vectors = JSON.parse(readFileSync(join(vectorsDir, file), 'utf8')) as VectorFile;
  const testCase = vectors.cases.find((candidate) => candidate.name === 'messages_single_user')!;
  const withRecord = (edit: (record: Record<string, unknown>) => void): VectorCase => {
    const copy = clone(testCase);
    edit((copy.expected as { per_message: Array<Record<string, unknown>> }).per_message[0]!);
    return copy;
  };

  it.each(ALL_PRESETS.map((preset) => [preset.name, preset] as const))(
    'is compared when the case records it and left out when it does not (%s)',
    async (_name, preset) => {
      const adapter = adapters.get(file)!;
      const without = withRecord((record) => delete record.python_str);
      expect((await runVectorCase(file, without, adapter, preset)).status).toBe('passed');
      const wrong = withRecord((record) => (record.python_str = "{'role': 'user'}"));
      expect((await runVectorCase(file, wrong, adapter, preset)).status).toBe('failed');
      const missingRequired = withRecord((record) => delete record.estimator_chars);
      expect((await runVectorCase(file, missingRequired, adapter, preset)).reason).toContain(
        'unexpected key',
      );
    },
  );
});
