/** One row of `bench-results.json` (SPEC §2.1, §7). The shape is fixed: other tools read it. */
export interface BenchResult {
  name: string;
  /** Messages in the transcript measured, or null when the figure has no size. */
  size: number | null;
  /** Null when the figure could not be measured (yet); `met` is null then too. */
  value: number | null;
  unit: string;
  /** The SPEC §7 target as text, e.g. "< 100 ms"; null when the figure has none. */
  target: string | null;
  /** Whether the target is met; null where there is no target. */
  met: boolean | null;
}

/** A row as measured, with what the printed table adds beside it (never written to the JSON). */
export interface BenchRow extends BenchResult {
  value: number;
  /** Runs, spread, CPU time, caveats: printed in the table's last column. */
  note: string;
}

export interface MachineInfo {
  cores: number;
  cpu: string;
  node: string;
  chromium: string | null;
  platform: string;
  /** 1, 5 and 15 minute load averages when the bench started. */
  loadAverage: number[];
  /**
   * Microseconds to touch one new 4 KiB page of memory for the first time (median of three 64 MiB
   * buffers). Every large new string or array pays it; on a VM it can be 50× a desktop's.
   */
  firstTouchMicrosPerPage: number;
  date: string;
}

export interface BenchResultsFile {
  machine: MachineInfo;
  results: BenchResult[];
}

/** A figure that could not be measured (yet): printed with its reason, `value: null` in the JSON. */
export interface BenchSkip {
  name: string;
  size: number | null;
  unit: string;
  target: string | null;
  reason: string;
}

/** Decimals kept in the JSON per unit: more would only be noise. */
const DECIMALS: Record<string, number> = { 'tokens/s': 0, USD: 4, ms: 2, KiB: 1, '%': 2 };

export const toResult = ({ name, size, value, unit, target, met }: BenchRow): BenchResult => {
  const scale = 10 ** (DECIMALS[unit] ?? 3);
  return { name, size, value: Math.round(value * scale) / scale, unit, target, met };
};

export const skipToResult = ({ name, size, unit, target }: BenchSkip): BenchResult => ({
  name,
  size,
  value: null,
  unit,
  target,
  met: null,
});

/** What one measure-*.ts file contributes. */
export interface BenchOutcome {
  rows: BenchRow[];
  skips: BenchSkip[];
}
