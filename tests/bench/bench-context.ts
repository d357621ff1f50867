import type { BenchOptions } from './bench-options.ts';

/** What every measurement gets from the runner. */
export interface BenchContext {
  readonly options: BenchOptions;
  /** Progress lines, so a long run shows where it is. */
  log(line: string): void;
}
