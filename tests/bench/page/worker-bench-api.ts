import type { TokenEncoding } from '#core/tokens/estimator.ts';

/** A transcript opened in a fresh worker, ready to be counted. */
export interface PreparedTranscript {
  messages: number;
  /** openDocument(): sending the messages over and their rough counts. */
  openMs: number;
  /** The first countText() of the fresh worker: loading the encoding. */
  encoderLoadMs: number;
}

/** One exact count of the whole prepared transcript, timed from the page. */
export interface WorkerCountRun {
  tokens: number;
  /** Messages actually tokenised; the rest repeated a text already counted (TokenDocuments' cache). */
  tokenized: number;
  /** countExact() as the page sees it: call, count, per-message counts back. */
  roundTripMs: number;
  /** countExact()'s own clock inside the worker. */
  workerMs: number;
}

/** One appended message and the recount that follows, on an open, fully counted document. */
export interface RecountRun {
  appendMs: number;
  /** countExact() round trip after the append. */
  recountMs: number;
  workerMs: number;
  tokenized: number;
  messages: number;
}

export interface RawTextRun {
  chars: number;
  tokens: number;
  roundTripMs: number;
}

/**
 * What tests/bench/page exposes as `window.__workerBench`, driven by measure-worker-count.ts.
 * Preparing and measuring are separate calls, so the CPU time read around a measuring call is
 * the count's alone (not generating the transcript).
 */
export interface WorkerBenchApi {
  prepareTranscript(size: number, encoding: TokenEncoding): Promise<PreparedTranscript>;
  countPrepared(encoding: TokenEncoding): Promise<WorkerCountRun>;
  appendAndRecount(runs: number, encoding: TokenEncoding): Promise<RecountRun[]>;
  prepareRawText(chars: number, encoding: TokenEncoding): Promise<number>;
  countRawText(encoding: TokenEncoding): Promise<RawTextRun>;
}
