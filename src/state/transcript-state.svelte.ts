import type { PresetName } from '../core/presets/preset-name.ts';
import type { Estimator, TokenEncoding } from '../core/tokens/estimator.ts';
import type { Transcript } from '../core/transcript/transcript.ts';
import { ComputeCancelledError, workerCallback, type ComputeClient } from '../io/compute/compute-client.ts';

export type TranscriptStatus = 'empty' | 'loading' | 'counting' | 'ready' | 'error';

export interface TokenCounts {
  perMessage: readonly number[];
  total: number;
}

/**
 * The transcript on screen and its token counts. Rough counts come back with the document;
 * exact counts arrive later from the worker and are kept per encoding, so switching back to an
 * encoding already counted is instant.
 */
export class TranscriptState {
  readonly #compute: ComputeClient;
  readonly #documentId = 'current';
  #openedInGeneration = -1;
  #countRequest = 0;

  transcript = $state.raw<Transcript | null>(null);
  rough = $state.raw<TokenCounts | null>(null);
  exactByEncoding = $state.raw<Partial<Record<TokenEncoding, TokenCounts>>>({});
  status = $state<TranscriptStatus>('empty');
  progress = $state.raw<{ done: number; total: number } | null>(null);
  error = $state<string | null>(null);
  preset = $state<PresetName>('hermes-2026-04');

  constructor(compute: ComputeClient) {
    this.#compute = compute;
  }

  /** Counts for the chosen estimator, or null while they are still being computed. */
  countsFor(estimator: Estimator): TokenCounts | null {
    return estimator === 'rough' ? this.rough : (this.exactByEncoding[estimator] ?? null);
  }

  async load(transcript: Transcript, estimator: Estimator): Promise<void> {
    this.transcript = transcript;
    this.rough = null;
    this.exactByEncoding = {};
    this.error = null;
    this.status = 'loading';
    try {
      await this.#openDocument();
      await this.count(estimator);
    } catch (error) {
      this.#fail(error);
    }
  }

  /** Makes sure exact counts for the estimator exist; rough needs no work. */
  async count(estimator: Estimator): Promise<void> {
    if (estimator === 'rough' || this.exactByEncoding[estimator] || !this.transcript) {
      this.status = this.transcript ? 'ready' : 'empty';
      return;
    }
    const request = ++this.#countRequest;
    this.status = 'counting';
    this.progress = { done: 0, total: this.transcript.messages.length };
    try {
      if (this.#openedInGeneration !== this.#compute.generation || !this.#compute.isRunning) {
        await this.#openDocument();
      }
      const onProgress = workerCallback((done: number, total: number) => {
        if (request === this.#countRequest) this.progress = { done, total };
      });
      const counts = await this.#compute.run((api) =>
        api.countExact(this.#documentId, estimator, onProgress),
      );
      // A newer request (another estimator, another transcript) supersedes this one.
      if (request !== this.#countRequest) return;
      this.exactByEncoding = { ...this.exactByEncoding, [estimator]: counts };
      this.status = 'ready';
      this.progress = null;
    } catch (error) {
      if (request === this.#countRequest) this.#fail(error);
    }
  }

  async #openDocument(): Promise<void> {
    const transcript = this.transcript;
    if (!transcript) return;
    const rough = await this.#compute.run((api) =>
      api.openDocument(
        this.#documentId,
        $state.snapshot(transcript.messages) as Transcript['messages'],
        this.preset,
      ),
    );
    this.#openedInGeneration = this.#compute.generation;
    if (this.transcript === transcript) this.rough = rough;
  }

  #fail(error: unknown): void {
    if (error instanceof ComputeCancelledError) {
      this.status = 'ready';
      this.progress = null;
      return;
    }
    this.status = 'error';
    this.error = error instanceof Error ? error.message : String(error);
  }
}
