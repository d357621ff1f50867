/** A value measured over repeated runs: wall-clock milliseconds and the process's CPU time. */
export interface RunStats {
  /** Median wall-clock time of the timed runs, ms. */
  medianMs: number;
  minMs: number;
  maxMs: number;
  /** Median CPU time (user + system) of this process during a run, ms; tells load from work. */
  medianCpuMs: number;
  runs: number;
  samplesMs: number[];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const cpuMs = (): number => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/**
 * Runs `work` `warmups` times untimed (JIT, caches of the runtime, not of the work) and then
 * `runs` times timed. `work` gets the run index; whatever it returns from the last run is kept.
 */
export function timeRuns<T>(
  runs: number,
  work: (run: number) => T | Promise<T>,
  warmups = 0,
): Promise<{ stats: RunStats; last: T }> {
  return timePreparedRuns(runs, (run) => run, work, warmups);
}

/**
 * As `timeRuns`, with an untimed `prepare` before every run (warm-ups included) whose value the
 * run gets: what a run must not find left over from the one before (a fresh plan and its
 * caches) is made here, outside the timing.
 */
export async function timePreparedRuns<P, T>(
  runs: number,
  prepare: (run: number) => P | Promise<P>,
  work: (prepared: P) => T | Promise<T>,
  warmups = 0,
): Promise<{ stats: RunStats; last: T }> {
  for (let index = 0; index < warmups; index++) await work(await prepare(-1 - index));
  const samplesMs: number[] = [];
  const cpuSamplesMs: number[] = [];
  let last: T | undefined;
  for (let index = 0; index < runs; index++) {
    const prepared = await prepare(index);
    const startedCpu = cpuMs();
    const started = performance.now();
    last = await work(prepared);
    samplesMs.push(performance.now() - started);
    cpuSamplesMs.push(cpuMs() - startedCpu);
  }
  return {
    stats: {
      medianMs: median(samplesMs),
      minMs: Math.min(...samplesMs),
      maxMs: Math.max(...samplesMs),
      medianCpuMs: median(cpuSamplesMs),
      runs,
      samplesMs,
    },
    last: last as T,
  };
}

/** "median of 5 (min–max), cpu X ms" for the table's note column. */
export function describeRuns(stats: RunStats, withCpu = true): string {
  const spread = stats.runs > 1 ? ` (${formatMs(stats.minMs)}–${formatMs(stats.maxMs)})` : '';
  const cpu = withCpu ? `, cpu ${formatMs(stats.medianCpuMs)}` : '';
  return `${stats.runs === 1 ? '1 run' : `median of ${stats.runs}`}${spread}${cpu}`;
}

export function formatMs(ms: number): string {
  if (ms >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms >= 100) return `${Math.round(ms)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  return `${ms.toFixed(2)} ms`;
}

/**
 * Growth exponent of time against size: the least-squares slope of log(time) on log(size).
 * 1.0 is linear, 2.0 quadratic.
 */
export function logLogSlope(points: readonly { size: number; ms: number }[]): number {
  const xs = points.map((point) => Math.log(point.size));
  const ys = points.map((point) => Math.log(point.ms));
  const meanX = xs.reduce((sum, x) => sum + x, 0) / xs.length;
  const meanY = ys.reduce((sum, y) => sum + y, 0) / ys.length;
  let numerator = 0;
  let denominator = 0;
  xs.forEach((x, index) => {
    numerator += (x - meanX) * (ys[index]! - meanY);
    denominator += (x - meanX) ** 2;
  });
  return numerator / denominator;
}
