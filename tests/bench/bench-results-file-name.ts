import type { BenchMeasurement } from './bench-options.ts';

/**
 * Where a run writes its figures: `bench-results.json` for a full run; a partial run (`--only`)
 * never overwrites those, it writes `bench-results-<names>.json` (`--only import` →
 * `bench-results-import.json`, `--only compress,replay` → `bench-results-compress-replay.json`).
 */
export function benchResultsFileName(only: ReadonlySet<BenchMeasurement> | null): string {
  return only === null ? 'bench-results.json' : `bench-results-${[...only].join('-')}.json`;
}
