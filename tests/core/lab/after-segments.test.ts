import { describe, expect, it } from 'vitest';
import { afterSegments } from '#core/lab/after-segments.ts';
import { buildTokenAxis } from '#core/lab/token-axis.ts';
import { FATE } from '#core/strategies/strategy.ts';

describe('afterSegments', () => {
  it('adds up what survives of each region, the summary at its budget and re-attached files', () => {
    // system 100 · head 200 · middle 300, 400 (shortened by 350), 500 (kept inside) · tail 600, 700
    const axis = buildTokenAxis([100, 200, 300, 400, 500, 600, 700], 1, 50);
    const fates = Uint8Array.from([
      FATE.kept,
      FATE.kept,
      FATE.summarized,
      FATE.pruned,
      FATE.kept,
      FATE.kept,
      FATE.dropped,
    ]);
    const segments = afterSegments({
      axis,
      fates,
      headEnd: 2,
      tailStart: 5,
      prunedSavings: new Map([[3, 350]]),
      summaryTokens: 250,
      summaryCount: 1,
      reattachedTokens: 80,
      reattachedCount: 2,
    });
    expect(segments).toEqual([
      { kind: 'system', tokens: 100, messages: 1 },
      { kind: 'tools', tokens: 50, messages: 0 },
      { kind: 'head', tokens: 200, messages: 1 },
      { kind: 'summary', tokens: 250, messages: 1 },
      // #3 keeps 400 − 350 = 50, #4 all 500.
      { kind: 'kept', tokens: 550, messages: 2 },
      { kind: 'reattached', tokens: 80, messages: 2 },
      // #6 is dropped: only #5's 600.
      { kind: 'tail', tokens: 600, messages: 1 },
    ]);
  });

  it('leaves out empty stretches', () => {
    const axis = buildTokenAxis([10, 20], 0, 0);
    const segments = afterSegments({
      axis,
      fates: Uint8Array.from([FATE.summarized, FATE.kept]),
      headEnd: 0,
      tailStart: 1,
      prunedSavings: new Map(),
      summaryTokens: 5,
      summaryCount: 1,
      reattachedTokens: 0,
      reattachedCount: 0,
    });
    expect(segments.map((segment) => segment.kind)).toEqual(['summary', 'tail']);
  });
});
