import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAdapter } from '#cli/conformance/load-adapter.ts';
import { runVectorCase, type CaseResult } from '#cli/conformance/run-vector-file.ts';
import type { VectorAdapter, VectorFile } from '#cli/conformance/vector-adapter.ts';
import { ALL_PRESETS } from '#core/presets/preset.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';

const vectorsDir = resolve(import.meta.dirname, '../../../../shared/conformance/hermes');

async function runAll(presetIndex: number): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const file of readdirSync(vectorsDir).filter((name) => name.endsWith('.json'))) {
    const vectors = JSON.parse(readFileSync(join(vectorsDir, file), 'utf8')) as VectorFile;
    const adapter = (await loadAdapter(file))!;
    for (const testCase of vectors.cases) {
      results.push(await runVectorCase(file, testCase, adapter, ALL_PRESETS[presetIndex]!));
    }
  }
  return results;
}

describe('skipped cases of the shared vectors', () => {
  it('2026-04 skips only what 2026-04 lacked or raised on, and refuses the raising inputs the same way', async () => {
    const skipped = (await runAll(0)).filter((result) => result.status === 'skipped');
    const notAvailable = skipped.filter((result) => result.reason === 'not available in this version');
    // Functions 2026-04 did not have: the real-usage anti-thrash gates, the separate tail-walk
    // weight and the window-scaled persistence budgets.
    expect(notAvailable.map((result) => `${result.file} :: ${result.name}`)).toEqual([
      'anti_thrash_gates.json :: ineffective_compaction_strikes',
      'anti_thrash_gates.json :: fallback_streak_breaker',
      'anti_thrash_gates.json :: summary_failure_cooldown',
      'anti_thrash_gates.json :: preflight_deferral_after_compaction',
      'token_estimates.json :: msg_budget_budget_plain',
      'token_estimates.json :: msg_budget_budget_empty',
      'token_estimates.json :: msg_budget_budget_tool_call',
      'token_estimates.json :: msg_budget_budget_images',
      'token_estimates.json :: msg_budget_budget_reasoning_fields',
      'tool_result_persistence.json :: budget_for_context_window_0',
      'tool_result_persistence.json :: budget_for_context_window_166666',
      'tool_result_persistence.json :: budget_for_context_window_200000',
    ]);
    const raised = skipped.filter((result) => result.reason !== 'not available in this version');
    expect(raised.map((result) => [result.name, result.reason])).toEqual([
      [
        'summarize_web_extract_9',
        "Hermes raised: TypeError: unsupported operand type(s) for +=: 'dict' and 'str'; the port refused the same way: TypeError: unsupported operand type(s) for +=: 'dict' and 'str'",
      ],
      [
        'summarize_terminal_25',
        "Hermes raised: TypeError: object of type 'bool' has no len(); the port refused the same way: TypeError: object of type 'bool' has no len()",
      ],
      [
        'summarize_non_dict_args',
        "Hermes raised: AttributeError: 'list' object has no attribute 'get'; the port refused the same way: AttributeError: 'list' object has no attribute 'get'",
      ],
    ]);
  });

  it('2026-07 skips nothing', async () => {
    expect((await runAll(1)).filter((result) => result.status !== 'passed')).toEqual([]);
  });
});

describe('runVectorCase on a raises expectation', () => {
  const testCase = {
    name: 'crash',
    input: {},
    expected: 'a line',
    expected_legacy_2026_04: { raises: 'TypeError: boom' },
  };
  const returning = (value: unknown): VectorAdapter => ({ inputKeys: () => [], run: () => value });

  it('says when the port returned a value where Hermes raised', async () => {
    expect(await runVectorCase('f.json', testCase, returning('a line'), HERMES_2026_04)).toEqual({
      file: 'f.json',
      name: 'crash',
      status: 'skipped',
      reason: 'Hermes raised: TypeError: boom; the port returned a value instead of refusing',
    });
  });

  it('says when the port refused with another exception type', async () => {
    const result = await runVectorCase(
      'f.json',
      testCase,
      returning({ raises: 'KeyError: x' }),
      HERMES_2026_04,
    );
    expect(result.reason).toBe('Hermes raised: TypeError: boom; the port refused differently: KeyError: x');
  });

  it('fails a port that crashes', async () => {
    const crashing: VectorAdapter = {
      inputKeys: () => [],
      run: () => {
        throw new Error('kaboom');
      },
    };
    expect(await runVectorCase('f.json', testCase, crashing, HERMES_2026_04)).toMatchObject({
      status: 'failed',
      reason: 'threw: kaboom',
    });
  });

  it('fails a refusal where Hermes did not raise', async () => {
    const result = await runVectorCase(
      'f.json',
      { ...testCase, expected_legacy_2026_04: 'a line' },
      returning({ raises: 'TypeError: boom' }),
      HERMES_2026_04,
    );
    expect(result.status).toBe('failed');
  });
});
