// @vitest-environment jsdom
import { fireEvent, render } from '@testing-library/svelte';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Comparison, ComparisonRow } from '#core/comparison/comparison.ts';
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
      // One path per kind with stretches (each stretch a rectangle in it), beside the track and
      // the two "after" bars.
      const kinds = [
        ...new Set(row.lane.segments.filter((segment) => segment.tokens > 0).map((s) => s.kind)),
      ];
      const paths = [...lane.querySelectorAll('path[data-kind]')];
      expect(paths.map((path) => path.getAttribute('data-kind')).sort()).toEqual(kinds.sort());
      for (const path of paths) {
        const kind = path.getAttribute('data-kind');
        const stretches = row.lane.segments.filter((s) => s.kind === kind && s.tokens > 0).length;
        expect(path.getAttribute('d')!.match(/M/g)).toHaveLength(stretches);
      }
      expect(lane.querySelectorAll('rect')).toHaveLength(3);
    });
  });

  it('says a skipped compaction was skipped, as the table does, not "before → before"', () => {
    const [compacted, other] = comparison.rows;
    const skipped: ComparisonRow = { ...other!, skipped: 'would-grow', tokensAfter: other!.tokensBefore };
    const { getAllByTestId } = render(CompareLanes, {
      comparison: { ...comparison, rows: [compacted!, skipped] },
    });
    const figures = getAllByTestId('compare-lane-figure').map((figure) => figure.textContent);
    expect(figures[0]).toContain('→');
    expect(figures[1]).toContain('(skipped: would-grow)');
    expect(figures[1]).not.toContain('→');
  });

  it('names the stretch under the pointer beside the lane', async () => {
    const { getAllByTestId, queryByTestId } = render(CompareLanes, { comparison });
    const svg = getAllByTestId('compare-lane')[0]!.querySelector('svg')!;
    // jsdom lays nothing out: give the lane a 1,000-pixel box, one pixel per drawing unit.
    svg.getBoundingClientRect = () => ({ left: 0, top: 0, width: 1000, height: 26 }) as DOMRect;
    const axis = Math.max(comparison.tokensBefore, comparison.contextLength);
    const row = comparison.rows[0]!;
    // The middle of the lane's last stretch with tokens.
    const last = row.lane.segments.filter((segment) => segment.tokens > 0).at(-1)!;
    const middle = ((last.offset + last.tokens / 2) / axis) * 1000;
    await fireEvent.pointerMove(svg, { clientX: middle, clientY: 5 });
    const named = getAllByTestId('compare-lane-stretch');
    expect(named).toHaveLength(1);
    expect(named[0]!.dataset.kind).toBe(last.kind);
    expect(named[0]!.textContent).toContain(`#${last.start}`);
    expect(named[0]!.textContent).toContain(`${last.tokens.toLocaleString('en-US')} tokens`);
    await fireEvent.pointerLeave(svg);
    expect(queryByTestId('compare-lane-stretch')).toBeNull();
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
    expect(Array.from(series.requests)).toEqual(Array.from({ length: requests }, (_, index) => index + 1));
    series.lines.forEach((line, index) => {
      const simulation = comparison.rows[index]!.simulation!;
      expect(Array.from(line.tokens)).toEqual(Array.from(simulation.timeline.tokens));
      const marked = line.compactions.flatMap((value, request) => (value === null ? [] : [request]));
      expect(marked).toEqual(simulation.compactions.map((point) => point.request));
    });
  });
});
