import type { CompressionResult } from '../compression/compress.ts';
import type { CompressionDiff } from './compression-diff.ts';

/** One replayed compression as the worker returns it: core's result plus its before/after diff. */
export interface LabCompression {
  readonly result: CompressionResult;
  readonly diff: CompressionDiff;
  readonly summarizerLabel: string;
  readonly offline: boolean;
  /** Worker time of compress() and the diff, milliseconds (a provider call included). */
  readonly elapsedMs: number;
}
