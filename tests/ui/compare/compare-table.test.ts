// @vitest-environment jsdom
import { fireEvent, render } from '@testing-library/svelte';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Comparison } from '#core/comparison/comparison.ts';
import CompareLanes from '#ui/compare/CompareLanes.svelte';
import CompareRowDetails from '#ui/compare/CompareRowDetails.svelte';
import CompareTable from '#ui/compare/CompareTable.svelte';
import { simulationSeries } from '#ui/compare/simulation-series.ts';
import { demoComparison } from './comparison-fixture.ts';

let comparison: Comparison;
beforeAll(async () => {
  comparison = await demoComparison();
});

describe('CompareTable', () => {
  it('has one row per entry carrying its figures, and opens or diffs a row', async () => {
    const toggled: number[] = [];
    const diffed: number[] = [];
    const { getAllByTestId } = render(CompareTable, {
      comparison,
      openRow: null,
      diffRows: [0],
      onToggleRow: (index: number) => toggled.push(index),
      onToggleDiff: (index: number) => diffed.push(index),
    });
    const rows = getAllByTestId('compare-row');
    expect(rows.map((row) => row.dataset.strategy)).toEqual(['codex-cli', 'claude-code']);
    comparison.rows.forEach((row, index) => {
      expect(rows[index]!.dataset.tokensAfter).toBe(String(row.tokensAfter));
      expect(rows[index]!.dataset.fidelity).toBe(String(row.fidelity.score));
      expect(rows[index]!.dataset.compactions).toBe(String(row.simulation!.compactions.length));
    });
    // Codex fires at 57,600 in a 64K window: the demo (~93K) is over it.
    expect(rows[0]!.textContent).toContain('57,600');
    expect(rows[0]!.textContent).toContain('yes');
    const toggles = getAllByTestId('compare-diff-toggle') as HTMLInputElement[];
    expect(toggles.map((toggle) => toggle.checked)).toEqual([true, false]);
    await fireEvent.click(getAllByTestId('compare-row-open')[1]!);
    await fireEvent.click(toggles[1]!);
    expect(toggled).toEqual([1]);
    expect(diffed).toEqual([1]);
  });
});

describe('CompareLanes', () => {
  it('draws a lane per entry on one axis, with its stretches and the result', () => {
    const { getAllByTestId } = render(CompareLanes, { comparison });
    const lanes = getAllByTestId('compare-lane');
    expect(lanes).toHaveLength(2);
    comparison.rows.forEach((row, index) => {
      const lane = lanes[index]!;
      expect(lane.dataset.tokensAfter).toBe(String(row.lane.after.tokens));
      const drawn = ['head', 'kept', 'summarized', 'dropped'].reduce(
        (sum, kind) => sum + Number(lane.dataset[`${kind}Tokens`]),
        0,
      );
      // Every stretch of the transcript is on the lane once.
      expect(drawn).toBe(comparison.tokensBefore);
      // One rect per stretch, the track and the two "after" bars.
      expect(lane.querySelectorAll('rect')).toHaveLength(row.lane.segments.length + 3);
    });
  });
});

describe('CompareRowDetails', () => {
  it('groups what the entry lost by kind and opens a fact’s message', async () => {
    const jumps: number[] = [];
    const row = comparison.rows[0]!;
    const { getAllByTestId, getByTestId } = render(CompareRowDetails, {
      row,
      onJump: (index: number) => jumps.push(index),
    });
    const kinds = [...getByTestId('compare-lost').querySelectorAll('[data-kind]')].map(
      (group) => (group as HTMLElement).dataset.kind,
    );
    expect(kinds).toEqual(
      [...new Set(row.fidelity.lost.map((fact) => fact.kind))].sort((a, b) => kindOrder(a) - kindOrder(b)),
    );
    const first = getAllByTestId('lost-fact-open')[0]!;
    await fireEvent.click(first);
    expect(jumps).toHaveLength(1);
    expect(row.fidelity.lost.some((fact) => fact.messageIndex === jumps[0])).toBe(true);
    expect(getByTestId('compare-summary').textContent).toBe(row.summaries[0]!.body);
  });
});

const KIND_ORDER = ['path', 'error', 'identifier', 'command', 'url', 'ask', 'decision'];
const kindOrder = (kind: string): number => KIND_ORDER.indexOf(kind);

describe('simulationSeries', () => {
  it('aligns every entry on the same requests and marks its compactions', () => {
    const series = simulationSeries(comparison)!;
    const requests = comparison.rows[0]!.simulation!.requests;
    expect(series.requests).toEqual(Array.from({ length: requests }, (_, index) => index + 1));
    series.lines.forEach((line, index) => {
      const simulation = comparison.rows[index]!.simulation!;
      expect(line.tokens).toEqual(Array.from(simulation.timeline.tokens));
      const marked = line.compactions.flatMap((value, request) => (value === null ? [] : [request]));
      expect(marked).toEqual(simulation.compactions.map((point) => point.request));
    });
  });
});
