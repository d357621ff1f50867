import { describe, expect, it } from 'vitest';
import type { LaneSegment } from '#core/comparison/compare-lane.ts';
import { laneKindPaths } from '#core/comparison/lane-kind-paths.ts';

describe('laneKindPaths', () => {
  it('draws each stretch with tokens as a rectangle in its kind’s path, on the axis scale', () => {
    // 2,000 tokens on a 1,000-unit axis: half a unit per token.
    const segments: LaneSegment[] = [
      { kind: 'head', start: 0, end: 1, offset: 0, tokens: 200 },
      { kind: 'head', start: 1, end: 1, offset: 200, tokens: 0 },
      { kind: 'kept', start: 1, end: 2, offset: 200, tokens: 1 },
      { kind: 'summary', start: 2, end: 5, offset: 201, tokens: 999 },
      { kind: 'kept', start: 5, end: 6, offset: 1200, tokens: 300 },
    ];
    const paths = laneKindPaths(segments, 2000, 1000, 15);
    expect(paths.head).toBe('M0 0h100v15h-100z');
    // The one-token stretch (half a unit) is drawn at the 0.6-unit minimum.
    expect(paths.kept).toBe('M100 0h0.6v15h-0.6zM600 0h150v15h-150z');
    expect(paths.summary).toBe('M100.5 0h499.5v15h-499.5z');
    expect(paths.pruned).toBe('');
    expect(paths.dropped).toBe('');
  });
});
