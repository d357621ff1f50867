import { parseArgs } from 'node:util';

/** How heavy a measurement is per run; decides how many runs each size gets. */
export type RunWeight = 'light' | 'heavy' | 'reference';

export interface BenchOptions {
  quick: boolean;
  browser: boolean;
  sizes: readonly number[];
  /** Sizes of the generated Claude Code JSONL files for the import figures, MiB. */
  importMegabytes: readonly number[];
  /** Runs of the browser import per file size (each imports into a fresh IndexedDB). */
  importRunsFor(megabytes: number): number;
  /** Appends timed for the incremental recount. */
  incrementalRuns: number;
  /** Only these measurements (`--only compress,replay`); null runs them all. */
  only: ReadonlySet<BenchMeasurement> | null;
  runsFor(weight: RunWeight, size: number): number;
}

/**
 * The measurements `--only` can pick. `import`: the import figures, Node parse and through the
 * app; `large-session`: the 50,000-message session toured for main-thread long tasks; `browser`:
 * the whole Chromium part.
 */
export const BENCH_MEASUREMENTS = [
  'rough',
  'exact',
  'compress',
  'replay',
  'fidelity',
  'import',
  'cache',
  'compare',
  'large-session',
  'browser',
] as const;
export type BenchMeasurement = (typeof BENCH_MEASUREMENTS)[number];

const isMeasurement = (name: string): name is BenchMeasurement =>
  (BENCH_MEASUREMENTS as readonly string[]).includes(name);

const FULL_SIZES = [200, 2_000, 10_000, 50_000] as const;
const QUICK_SIZES = [200, 2_000, 10_000] as const;

// Runs per size. Medians need an odd count; the 50,000-message runs take seconds each, so they
// get fewer. The js-tiktoken reference runs at ~0.15M tokens/s: only the small sizes.
const FULL_RUNS: Record<RunWeight, Record<number, number>> = {
  light: { 200: 7, 2_000: 5, 10_000: 5, 50_000: 3 },
  heavy: { 200: 5, 2_000: 5, 10_000: 3, 50_000: 1 },
  reference: { 200: 3, 2_000: 1 },
};
const QUICK_RUNS: Record<RunWeight, Record<number, number>> = {
  light: { 200: 3, 2_000: 3, 10_000: 3 },
  heavy: { 200: 1, 2_000: 1, 10_000: 1 },
  reference: { 200: 1 },
};

// Browser imports per file size: each run is a fresh page and database, and the file is large.
const FULL_IMPORT_RUNS: Record<number, number> = { 20: 3, 100: 3 };

export const BENCH_USAGE =
  'usage: npm run bench -- [--quick] [--no-browser] [--sizes 200,2000,10000,50000] [--only NAMES]\n' +
  '  --quick       fewer runs and sizes up to 10,000 messages, a 20 MiB import: a fast check\n' +
  '  --no-browser  Node figures only (no build, no Chromium)\n' +
  `  --only        only these measurements, comma-separated: ${BENCH_MEASUREMENTS.join(', ')}`;

export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      quick: { type: 'boolean', default: false },
      'no-browser': { type: 'boolean', default: false },
      sizes: { type: 'string' },
      only: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(BENCH_USAGE);
    process.exit(0);
  }
  const quick = values.quick ?? false;
  const sizes = values.sizes
    ? values.sizes.split(',').map((part) => Number(part.replace(/_/g, '')))
    : quick
      ? QUICK_SIZES
      : FULL_SIZES;
  if (sizes.some((size) => !Number.isInteger(size) || size < 10)) {
    console.error(`--sizes needs whole numbers of at least 10 messages\n${BENCH_USAGE}`);
    process.exit(2);
  }
  const only = values.only ? values.only.split(',').map((name) => name.trim()) : null;
  const unknown = only?.filter((name) => !isMeasurement(name)) ?? [];
  if (unknown.length > 0) {
    console.error(`--only: unknown measurement ${unknown.join(', ')}\n${BENCH_USAGE}`);
    process.exit(2);
  }
  const table = quick ? QUICK_RUNS : FULL_RUNS;
  return {
    quick,
    browser: !values['no-browser'],
    sizes,
    importMegabytes: quick ? [20] : [20, 100],
    importRunsFor: (megabytes) => (quick ? 1 : (FULL_IMPORT_RUNS[megabytes] ?? 1)),
    incrementalRuns: quick ? 9 : 21,
    only: only ? new Set(only.filter(isMeasurement)) : null,
    runsFor: (weight, size) => table[weight][size] ?? (weight === 'reference' ? 0 : 1),
  };
}
