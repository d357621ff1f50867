import type { Preset } from '../../core/presets/preset.ts';
import { firstDifference } from './deep-equal.ts';
import type { VectorAdapter, VectorCase } from './vector-adapter.ts';

export type CaseStatus = 'passed' | 'failed' | 'skipped';

export interface CaseResult {
  file: string;
  name: string;
  status: CaseStatus;
  reason?: string;
}

/**
 * The expected value for a preset: the vectors name an older generation's value by its date
 * (`expected_legacy_2026_04`), so a preset reads the field named after its upstream month when
 * a case has one, else `expected`.
 */
export function expectedFor(testCase: VectorCase, preset: Preset): unknown {
  const legacyKey = `expected_legacy_${preset.upstream.date.slice(0, 7).replace('-', '_')}`;
  return legacyKey in testCase ? testCase[legacyKey] : testCase.expected;
}

function skipReason(expected: unknown): string | null {
  if (expected && typeof expected === 'object' && !Array.isArray(expected)) {
    const record = expected as Record<string, unknown>;
    if (record.not_available_in_this_version === true) return 'not available in this version';
    if (typeof record.raises === 'string') return `Hermes raised: ${record.raises}`;
  }
  return null;
}

export async function runVectorCase(
  file: string,
  testCase: VectorCase,
  adapter: VectorAdapter,
  preset: Preset,
): Promise<CaseResult> {
  const expected = expectedFor(testCase, preset);
  const skip = skipReason(expected);
  let actual: unknown;
  try {
    actual = await adapter.run(testCase, preset, expected);
  } catch (error) {
    // A case where Hermes itself crashed is skipped, but our port must not crash on it either.
    const message = error instanceof Error ? error.message : String(error);
    return { file, name: testCase.name, status: 'failed', reason: `threw: ${message}` };
  }
  if (skip) return { file, name: testCase.name, status: 'skipped', reason: skip };
  const difference = firstDifference(actual, expected);
  return difference
    ? { file, name: testCase.name, status: 'failed', reason: difference }
    : { file, name: testCase.name, status: 'passed' };
}
