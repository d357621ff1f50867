import { describe, expect, it } from 'vitest';
import { compactionEpochDetails, epochBoundaries } from '#core/sessions/compaction-epoch.ts';
import { FATE } from '#core/strategies/strategy.ts';

const { kept, pruned, summarized, dropped } = FATE;

describe('epochBoundaries', () => {
  it('puts the middle from the first to the last summarised or dropped message', () => {
    const fates = new Uint8Array([kept, pruned, summarized, kept, dropped, summarized, kept, kept]);
    expect(epochBoundaries(fates, 5, [{ start: 2, end: 6, kind: 'middle' }])).toEqual({
      messagesBefore: 8,
      messagesAfter: 5,
      head: 2,
      middle: 4,
      tail: 2,
      kept: 4,
      pruned: 1,
      summarized: 2,
      dropped: 1,
      spans: [{ start: 2, end: 6, kind: 'middle' }],
    });
  });

  it('counts everything as head when nothing was removed (pruning only)', () => {
    expect(epochBoundaries(new Uint8Array([kept, pruned, kept]), 3, [])).toMatchObject({
      head: 3,
      middle: 0,
      tail: 0,
      pruned: 1,
    });
  });
});

describe('compactionEpochDetails', () => {
  it('marks a summary edited only when the reviewer changed its text', () => {
    const span = { start: 1, end: 3, kind: 'middle' as const };
    const details = compactionEpochDetails({
      reason: 'manual',
      attemptId: null,
      reviewed: true,
      fates: new Uint8Array([kept, summarized, summarized, kept]),
      messagesAfter: 3,
      summaries: [
        { body: 'edited text', span, fallback: false },
        { body: 'same text', span: { ...span, kind: 'leaf' }, fallback: true },
      ],
      originalBodies: ['written text', 'same text'],
      requestTokensBefore: 900,
      requestTokensAfter: 300,
      assessment: null,
      settings: {
        strategy: 'lcm',
        strategyLabel: 'LCM',
        mode: 'in-place',
        contextLength: 64_000,
        thresholdPercent: 0.5,
        targetRatio: 0.2,
        protectFirstN: 3,
        protectLastN: 20,
        strategyOptions: {},
        focusTopic: null,
        summarizer: 'Offline summariser (no LLM)',
        model: null,
      },
    });
    expect(details.summaries.map((summary) => [summary.edited, summary.fallback])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect([details.tokensBefore, details.tokensAfter, details.boundaries.middle]).toEqual([900, 300, 2]);
  });
});
