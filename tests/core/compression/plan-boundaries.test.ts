import { describe, expect, it } from 'vitest';
import { adapter } from '#cli/conformance/adapters/boundaries.ts';
import { planBoundaries } from '#core/compression/plan-boundaries.ts';
import type { Message } from '#core/transcript/message.ts';
import { hermesVectorRuns, runAdapter } from '../shared/load-hermes-vectors.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const conversation = (count: number, chars: number): Message[] => [
  { role: 'system', content: 'sys' },
  ...Array.from({ length: count }, (_, index): Message => ({
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: 'x'.repeat(chars),
  })),
];
const options = {
  protectFirstN: 3,
  protectLastN: 20,
  tailTokenBudget: 300,
  compressionCount: 0,
  hasPreviousSummary: false,
};

describe('planBoundaries', () => {
  it.each(hermesVectorRuns('boundaries.json'))('matches the Hermes vector $name', (run) => {
    expect(runAdapter(adapter, run)).toEqual(run.expected);
  });

  it('keeps system + 3 in the head and a budgeted tail in 2026-07', () => {
    const plan = planBoundaries(conversation(14, 400), options, HERMES_2026_07);
    expect(plan).toMatchObject({
      protectHeadSize: 4,
      headEnd: 4,
      tailStart: 7,
      hasContentToCompress: true,
      tooFewMessages: false,
    });
  });

  it('flags transcripts too short for compress() but still plans them', () => {
    const plan = planBoundaries(conversation(5, 10), options, HERMES_2026_07);
    expect(plan).toMatchObject({ tooFewMessages: true, minMessagesExclusive: 8, headEnd: 4 });
  });

  it('decays the head after the first compaction in 2026-07', () => {
    const plan = planBoundaries(conversation(14, 400), { ...options, compressionCount: 1 }, HERMES_2026_07);
    expect([plan.protectHeadSize, plan.headEnd]).toEqual([1, 1]);
  });

  it('explains the tail cut it chose', () => {
    const plan = planBoundaries(conversation(14, 400), options, HERMES_2026_04);
    expect(plan.tailCut.steps[0]?.kind).toBe('budget-walk');
    expect(plan.tailCut.tailStart).toBe(plan.tailStart);
  });
});
