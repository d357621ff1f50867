import type { Preset } from '../../core/presets/preset.ts';
import { firstDifference } from './deep-equal.ts';
import { dropUnrecordedOptionalOutputs } from './drop-unrecorded-optional-outputs.ts';
import { requireKnownFields } from './require-known-fields.ts';
import type { VectorAdapter, VectorCase } from './vector-adapter.ts';

export type CaseStatus = 'passed' | 'failed' | 'skipped';

export interface CaseResult {
  file: string;
  name: string;
  status: CaseStatus;
  reason?: string;
}

/** Case fields every vector file may carry; an adapter declares any others it reads. */
const STANDARD_CASE_FIELDS = ['name', 'description', 'input', 'expected', 'provenance', 'from_test'];
const LEGACY_EXPECTATION = /^expected_legacy_\d{4}_\d{2}$/;

/**
 * The expected value for a preset: the vectors name an older generation's value by its date
 * (`expected_legacy_2026_04`), so a preset reads the field named after its upstream month when
 * a case has one, else `expected`.
 */
export function expectedFor(testCase: VectorCase, preset: Preset): unknown {
  const legacyKey = `expected_legacy_${preset.upstream.date.slice(0, 7).replace('-', '_')}`;
  return legacyKey in testCase ? testCase[legacyKey] : testCase.expected;
}

type Skip = { kind: 'not-available' } | { kind: 'raises'; raises: string };

function skipOf(expected: unknown): Skip | null {
  if (expected && typeof expected === 'object' && !Array.isArray(expected)) {
    const record = expected as Record<string, unknown>;
    if (record.not_available_in_this_version === true) return { kind: 'not-available' };
    if (typeof record.raises === 'string') return { kind: 'raises', raises: record.raises };
  }
  return null;
}

/** Throws unless every case and input field is one the adapter reads. */
function requireDeclaredFields(testCase: VectorCase, adapter: VectorAdapter): void {
  const caseFields = [...STANDARD_CASE_FIELDS, ...(adapter.caseKeys ?? [])];
  requireKnownFields(
    Object.fromEntries(Object.entries(testCase).filter(([key]) => !LEGACY_EXPECTATION.test(key))),
    caseFields,
    'case',
  );
  requireKnownFields(testCase.input, adapter.inputKeys(testCase), 'input');
}

const exceptionType = (raised: string): string => raised.split(':', 1)[0]!.trim();

/**
 * Where Hermes raised, the case is skipped (our port must not crash on it), and the reason says
 * whether the port refused the input the same way (`{raises}` with the same exception type) or
 * returned a value instead.
 */
function raisesReason(hermes: string, actual: unknown): string {
  const refused =
    actual && typeof actual === 'object' && typeof (actual as { raises?: unknown }).raises === 'string'
      ? (actual as { raises: string }).raises
      : null;
  if (refused === null) return `Hermes raised: ${hermes}; the port returned a value instead of refusing`;
  const same =
    exceptionType(refused) === exceptionType(hermes) ? 'refused the same way' : 'refused differently';
  return `Hermes raised: ${hermes}; the port ${same}: ${refused}`;
}

export async function runVectorCase(
  file: string,
  testCase: VectorCase,
  adapter: VectorAdapter,
  preset: Preset,
): Promise<CaseResult> {
  const expected = expectedFor(testCase, preset);
  const skip = skipOf(expected);
  let actual: unknown;
  try {
    requireDeclaredFields(testCase, adapter);
    actual = await adapter.run(testCase, preset);
  } catch (error) {
    // A case where Hermes itself crashed is skipped, but our port must not crash on it either.
    const message = error instanceof Error ? error.message : String(error);
    return { file, name: testCase.name, status: 'failed', reason: `threw: ${message}` };
  }
  if (skip?.kind === 'not-available') {
    return { file, name: testCase.name, status: 'skipped', reason: 'not available in this version' };
  }
  if (skip?.kind === 'raises') {
    return { file, name: testCase.name, status: 'skipped', reason: raisesReason(skip.raises, actual) };
  }
  const compared = dropUnrecordedOptionalOutputs(actual, expected, adapter.optionalOutputKeys ?? []);
  const difference = firstDifference(compared, expected);
  return difference
    ? { file, name: testCase.name, status: 'failed', reason: difference }
    : { file, name: testCase.name, status: 'passed' };
}
