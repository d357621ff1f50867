import { describe, expect, it } from 'vitest';
import { adapter } from '#cli/conformance/adapters/thresholds.ts';
import { computeSummaryBudget } from '#core/config/compute-summary-budget.ts';
import type { Message } from '#core/transcript/message.ts';
import { hermesVectorRuns, runAdapter } from '../shared/load-hermes-vectors.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const turns = (count: number, chars: number): Message[] =>
  Array.from({ length: count }, () => ({ role: 'user', content: 'x'.repeat(chars) }));

describe('computeSummaryBudget', () => {
  it.each(hermesVectorRuns('thresholds.json').filter((run) => 'turns' in (run.testCase.input as object)))(
    'matches the Hermes vector $name',
    (run) => {
      expect(runAdapter(adapter, run)).toEqual(run.expected);
    },
  );

  it('never asks for less than 2000 tokens', () => {
    expect(computeSummaryBudget(turns(1, 10), 10_000, HERMES_2026_07)).toBe(2000);
  });

  it('asks for 20% of the compacted content between the floor and the ceiling', () => {
    // 10 messages of 31 + 4000 chars = 40310 chars → 10078 tokens → 2015.
    expect(computeSummaryBudget(turns(10, 4000), 10_000, HERMES_2026_04)).toBe(2015);
  });

  it('stops at the ceiling however large the content is', () => {
    expect(computeSummaryBudget(turns(2000, 4000), 12_000, HERMES_2026_04)).toBe(12_000);
  });
});
