import { describe, expect, it } from 'vitest';
import { buildUsageSeries } from '#core/usage/usage-series.ts';
import { buildUsageTurn } from './usage-turn-builder.ts';

describe('buildUsageSeries', () => {
  it('numbers conversation turns from 1 with their prompt size and hit rate', () => {
    const series = buildUsageSeries([
      buildUsageTurn({ inputTokens: 1000, cacheWriteTokens: 3000 }),
      buildUsageTurn({ inputTokens: 200, cacheReadTokens: 3800 }),
    ]);
    expect(series.points.map((point) => [point.turn, point.promptTokens, point.cacheHitRate])).toEqual([
      [1, 4000, 0],
      [2, 4000, 0.95],
    ]);
    expect(series.markers).toEqual([]);
  });

  it('leaves a turn that read nothing without a hit rate', () => {
    expect(buildUsageSeries([buildUsageTurn()]).points[0]?.cacheHitRate).toBeNull();
  });

  it('marks an in-place compaction at its summary request, which is not a turn', () => {
    const summary = buildUsageTurn({ inputTokens: 9000, compaction: true });
    const series = buildUsageSeries([
      buildUsageTurn({ inputTokens: 1 }),
      summary,
      buildUsageTurn({ inputTokens: 2 }),
    ]);
    expect(series.points.map((point) => point.turn)).toEqual([1, 2]);
    expect(series.markers).toEqual([{ afterTurn: 1, summaryCalls: [summary], continuation: null }]);
  });

  it('leaves a probe’s calls out of the turns and the compaction markers', () => {
    const series = buildUsageSeries([
      buildUsageTurn({ inputTokens: 1 }),
      buildUsageTurn({ inputTokens: 9000, probe: true }),
      buildUsageTurn({ inputTokens: 9000, compaction: true, probe: true }),
      buildUsageTurn({ inputTokens: 2 }),
    ]);
    expect(series.points.map((point) => [point.turn, point.promptTokens])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    expect(series.markers).toEqual([]);
  });

  it('orders turns by the chain and merges a rotation with the summary request before it', () => {
    const summary = buildUsageTurn({ sessionId: 'root', compaction: true, inputTokens: 9 });
    const series = buildUsageSeries(
      [
        buildUsageTurn({ sessionId: 'child', inputTokens: 3 }),
        buildUsageTurn({ sessionId: 'root', inputTokens: 1 }),
        buildUsageTurn({ sessionId: 'root', inputTokens: 2 }),
        summary,
      ],
      ['root', 'child'],
    );
    expect(series.points.map((point) => [point.usage.inputTokens, point.segmentIndex])).toEqual([
      [1, 0],
      [2, 0],
      [3, 1],
    ]);
    expect(series.markers).toEqual([
      { afterTurn: 2, summaryCalls: [summary], continuation: { segmentIndex: 1, sessionId: 'child' } },
    ]);
  });

  it('marks every step of the chain, even before any recorded turn (an imported chain)', () => {
    const series = buildUsageSeries([buildUsageTurn({ sessionId: 'tip' })], ['root', 'middle', 'tip']);
    expect(series.markers.map((marker) => [marker.afterTurn, marker.continuation?.sessionId])).toEqual([
      [0, 'tip'],
    ]);
    // Two steps at the same place merge; the marker names the newest session.
    expect(series.markers[0]?.continuation?.segmentIndex).toBe(2);
  });

  it('puts sessions outside the chain last and never marks them as continuations', () => {
    const series = buildUsageSeries(
      [
        buildUsageTurn({ sessionId: 'other', inputTokens: 7 }),
        buildUsageTurn({ sessionId: 'root', inputTokens: 1 }),
      ],
      ['root'],
    );
    expect(series.points.map((point) => point.usage.inputTokens)).toEqual([1, 7]);
    expect(series.markers).toEqual([]);
  });
});
