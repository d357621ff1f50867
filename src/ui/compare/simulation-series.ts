import type { Comparison } from '../../core/comparison/comparison.ts';

/** One entry's line on the timeline and its compaction points. */
export interface SimulationLine {
  readonly label: string;
  /** Tokens sent with each request (after any compaction before it): the simulation's own array. */
  readonly tokens: Int32Array;
  /** The tokens before each compaction at its request, null elsewhere (drawn as points). */
  readonly compactions: readonly (number | null)[];
}

export interface SimulationSeries {
  /** Request numbers, 1-based: the shared x axis. */
  readonly requests: Int32Array;
  readonly lines: readonly SimulationLine[];
  /** The transcript message each request produced, by request (the same for every entry). */
  readonly messageIndex: Int32Array;
}

/**
 * The simulation timelines of a comparison as aligned series: every entry replays the same
 * transcript, so request n is the same model step in every line. Null when nothing was simulated.
 * The simulation's typed arrays are used as they are (uPlot draws typed arrays): a long session
 * has tens of thousands of requests, and copies of them are garbage the page collects as it draws.
 */
export function simulationSeries(comparison: Comparison): SimulationSeries | null {
  const simulated = comparison.rows.filter((row) => row.simulation !== null);
  if (simulated.length === 0) return null;
  const count = Math.max(...simulated.map((row) => row.simulation!.timeline.tokens.length));
  if (count === 0) return null;
  const requests = new Int32Array(count);
  for (let index = 0; index < count; index++) requests[index] = index + 1;
  const lines = simulated.map((row) => {
    const simulation = row.simulation!;
    const compactions: (number | null)[] = new Array<number | null>(count).fill(null);
    for (const point of simulation.compactions) compactions[point.request] = point.tokensBefore;
    return { label: row.label, tokens: simulation.timeline.tokens, compactions };
  });
  return { requests, lines, messageIndex: simulated[0]!.simulation!.timeline.messageIndex };
}
