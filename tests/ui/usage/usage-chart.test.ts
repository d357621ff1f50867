// @vitest-environment jsdom
import { fireEvent, render } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { buildUsageSeries } from '#core/usage/usage-series.ts';
import UsageChart from '#ui/usage/UsageChart.svelte';
import { buildUsageTurn } from '../../core/usage/usage-turn-builder.ts';

const series = buildUsageSeries(
  [
    buildUsageTurn({
      sessionId: 'root',
      inputTokens: 1000,
      cacheWriteTokens: 3000,
      outputTokens: 200,
      costUsd: 0.0147,
    }),
    buildUsageTurn({ sessionId: 'root', inputTokens: 200, cacheReadTokens: 3800, outputTokens: 150 }),
    buildUsageTurn({ sessionId: 'root', inputTokens: 5000, outputTokens: 400, compaction: true }),
    buildUsageTurn({ sessionId: 'child' }),
    buildUsageTurn({
      sessionId: 'child',
      inputTokens: 100,
      cacheReadTokens: 1900,
      outputTokens: 80,
      reasoningTokens: 20,
    }),
  ],
  ['root', 'child'],
);

describe('UsageChart', () => {
  it('draws one point per turn that read tokens, at its hit rate', () => {
    const { getAllByTestId } = render(UsageChart, { props: series });
    const points = getAllByTestId('usage-point');
    // Turn 3 read nothing: no rate, no point (a gap in the line, not a 0%).
    expect(points.map((point) => point.dataset.turn)).toEqual(['1', '2', '4']);
    expect(points.map((point) => Number(point.dataset.rate))).toEqual([0, 0.95, 0.95]);
    const [first, second] = points.map((point) => Number(point.getAttribute('cy')));
    expect(second).toBeLessThan(first!);
  });

  it('marks the compaction between the turns it separates, labelled with the new segment', () => {
    const { getAllByTestId } = render(UsageChart, { props: series });
    const markers = getAllByTestId('compaction-marker');
    expect(markers.map((marker) => marker.dataset.afterTurn)).toEqual(['2']);
    expect(markers[0]!.textContent).toContain('#2');
    expect(markers[0]!.querySelector('title')?.textContent).toMatch(
      /summary request: 5,000 tokens in, 400 out.*segment #2/,
    );
    const points = getAllByTestId('usage-point');
    const markerX = Number(markers[0]!.querySelector('line')?.getAttribute('x1'));
    expect(markerX).toBeGreaterThan(Number(points[1]!.getAttribute('cx')));
    expect(markerX).toBeLessThan(Number(points[2]!.getAttribute('cx')));
  });

  it('shows a turn’s values from the keyboard, with axes labelled', async () => {
    const { getByRole, getByTestId, container } = render(UsageChart, { props: series });
    expect(getByTestId('usage-readout').textContent).toContain('Point at a turn');
    const chart = getByRole('slider');
    await fireEvent.keyDown(chart, { key: 'ArrowRight' });
    const readout = getByTestId('usage-readout');
    expect(readout.textContent).toContain('Turn 1');
    expect(readout.textContent).toContain('$0.015');
    expect(chart.getAttribute('aria-valuetext')).toMatch(/Turn 1: cache hit rate 0.0%, 4,000 prompt tokens/);
    await fireEvent.keyDown(chart, { key: 'End' });
    expect(getByTestId('usage-readout').textContent).toContain('20 reasoning');
    const labels = [...container.querySelectorAll('text')].map((text) => text.textContent);
    expect(labels).toEqual(
      expect.arrayContaining(['0%', '50%', '100%', 'tokens', 'hit rate', 'turn', '5.0K']),
    );
  });

  it('puts the labels of compactions after neighbouring turns in separate rows, never "#2#3"', () => {
    const turn = (sessionId: string, compaction = false) =>
      buildUsageTurn({ sessionId, inputTokens: 1000, outputTokens: 100, compaction });
    const long = buildUsageSeries(
      [
        turn('a'),
        turn('a'),
        turn('a', true),
        turn('b'),
        turn('b', true),
        ...Array.from({ length: 40 }, () => turn('c')),
      ],
      ['a', 'b', 'c'],
    );
    const { getAllByTestId } = render(UsageChart, { props: long });
    const markers = getAllByTestId('compaction-marker');
    expect(markers.map((marker) => marker.dataset.afterTurn)).toEqual(['2', '3']);
    const labels = markers.map((marker) => marker.querySelector('text')!);
    expect(labels.map((label) => label.textContent)).toEqual(['#2', '#3']);
    // One turn apart on a 43-turn axis: too close to share a row.
    expect(labels[0]!.getAttribute('y')).not.toBe(labels[1]!.getAttribute('y'));
  });
});
