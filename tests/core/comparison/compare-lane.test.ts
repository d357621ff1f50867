import { describe, expect, it } from 'vitest';
import { buildLaneSegments } from '#core/comparison/compare-lane.ts';
import { FATE } from '#core/strategies/strategy.ts';

describe('buildLaneSegments', () => {
  it('merges neighbours of one kind, puts the tool schemas after the system prompt and counts the head', () => {
    // system, ask, reply (head), three summarised, a shortened one, a dropped one, two kept.
    const fates = Uint8Array.from([
      FATE.kept,
      FATE.kept,
      FATE.kept,
      FATE.summarized,
      FATE.summarized,
      FATE.summarized,
      FATE.pruned,
      FATE.dropped,
      FATE.kept,
      FATE.kept,
    ]);
    const tokens = [100, 10, 20, 30, 40, 50, 60, 70, 80, 90];
    expect(buildLaneSegments(fates, 3, 1, tokens, 500)).toEqual([
      // system (100) + tool schemas (500) + ask and reply (30) = 630
      { kind: 'head', start: 0, end: 3, offset: 0, tokens: 630 },
      { kind: 'summary', start: 3, end: 6, offset: 630, tokens: 120 },
      { kind: 'pruned', start: 6, end: 7, offset: 750, tokens: 60 },
      { kind: 'dropped', start: 7, end: 8, offset: 810, tokens: 70 },
      { kind: 'kept', start: 8, end: 10, offset: 880, tokens: 170 },
    ]);
  });

  it('does not call kept messages after a summary the head', () => {
    const fates = Uint8Array.from([FATE.kept, FATE.summarized, FATE.kept, FATE.summarized, FATE.kept]);
    const segments = buildLaneSegments(fates, 1, 1, [5, 5, 5, 5, 5], 0);
    expect(segments.map((segment) => segment.kind)).toEqual(['head', 'summary', 'kept', 'summary', 'kept']);
    // The lane spans the transcript: offsets add up to the total.
    const last = segments[segments.length - 1]!;
    expect(last.offset + last.tokens).toBe(25);
  });
});
