import { describe, expect, it } from 'vitest';
import type { LaneSegment } from '#core/comparison/compare-lane.ts';
import { findLaneSegment } from '#core/comparison/find-lane-segment.ts';

// A system prompt (100 tokens), no tool schemas (an empty stretch), then kept, summarised, kept.
const segments: LaneSegment[] = [
  { kind: 'head', start: 0, end: 1, offset: 0, tokens: 100 },
  { kind: 'head', start: 1, end: 1, offset: 100, tokens: 0 },
  { kind: 'kept', start: 1, end: 3, offset: 100, tokens: 50 },
  { kind: 'summary', start: 3, end: 10, offset: 150, tokens: 700 },
  { kind: 'kept', start: 10, end: 12, offset: 850, tokens: 150 },
];

describe('findLaneSegment', () => {
  it('finds the stretch a point of the axis falls in, its end excluded', () => {
    expect(findLaneSegment(segments, 0)?.start).toBe(0);
    expect(findLaneSegment(segments, 99.5)?.start).toBe(0);
    expect(findLaneSegment(segments, 150)?.kind).toBe('summary');
    expect(findLaneSegment(segments, 849)?.kind).toBe('summary');
    expect(findLaneSegment(segments, 999)?.start).toBe(10);
  });

  it('never answers with the empty stretch sharing an offset with the next', () => {
    expect(findLaneSegment(segments, 100)).toEqual(segments[2]);
  });

  it('is null before the axis, past its end, and for no stretches', () => {
    expect(findLaneSegment(segments, -1)).toBeNull();
    expect(findLaneSegment(segments, 1000)).toBeNull();
    expect(findLaneSegment([], 0)).toBeNull();
  });
});
