import type { StrategyName } from '../core/strategies/strategy-names.ts';
import type { Estimator, TokenEncoding } from '../core/tokens/estimator.ts';
import type { Transcript } from '../core/transcript/transcript.ts';
import {
  ComputeCancelledError,
  workerCallback,
  type ComputeClient,
  type OpenedDocument,
} from '../io/compute/compute-client.ts';

export type TranscriptStatus = 'empty' | 'loading' | 'counting' | 'ready' | 'error';

export interface TokenCounts {
  perMessage: readonly number[];
  total: number;
}

/** The worker document that holds the transcript on screen. */
export const CURRENT_DOCUMENT_ID = 'current';

/**
 * The transcript on screen and its token counts. Rough counts come back with the document;
 * exact counts arrive later from the worker and are kept per encoding, so switching back to an
 * encoding already counted is instant. `revision` names the worker's copy: plans computed on
 * another revision are stale.
 */
export class TranscriptState {
  readonly #compute: ComputeClient;
  readonly #documentId = CURRENT_DOCUMENT_ID;
  #openedInGeneration = -1;
  #countRequest = 0;
  #listeners: (() => void)[] = [];

  transcript = $state.raw<Transcript | null>(null);
  rough = $state.raw<TokenCounts | null>(null);
  exactByEncoding = $state.raw<Partial<Record<TokenEncoding, TokenCounts>>>({});
  status = $state<TranscriptStatus>('empty');
  progress = $state.raw<{ done: number; total: number } | null>(null);
  error = $state<string | null>(null);
  /** The worker revision of the open document; null while it is being opened. */
  revision = $state<number | null>(null);
  readonly #strategyName: () => StrategyName;

  /** `strategyName`: whose rough estimator measures the messages (the settings' choice). */
  constructor(compute: ComputeClient, strategyName: () => StrategyName) {
    this.#compute = compute;
    this.#strategyName = strategyName;
  }

  get documentId(): string {
    return this.#documentId;
  }

  /** Calls `listener` whenever the transcript, its revision or its counts change. */
  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** Counts for the chosen estimator, or null while they are still being computed. */
  countsFor(estimator: Estimator): TokenCounts | null {
    return estimator === 'rough' ? this.rough : (this.exactByEncoding[estimator] ?? null);
  }

  async load(transcript: Transcript, estimator: Estimator): Promise<void> {
    this.#reset(transcript);
    try {
      await this.#openDocument();
      await this.count(estimator);
    } catch (error) {
      this.#fail(error);
    }
  }

  /** Takes over a transcript the worker has already opened (an import), without sending it back. */
  async adopt(transcript: Transcript, opened: OpenedDocument, estimator: Estimator): Promise<void> {
    this.#reset(transcript);
    this.#openedInGeneration = this.#compute.generation;
    this.rough = { perMessage: opened.perMessage, total: opened.total };
    this.revision = opened.revision;
    this.#changed();
    await this.count(estimator);
  }

  /** Reopens the document if the worker was restarted since (a cancelled computation). */
  async ensureOpen(): Promise<void> {
    if (this.#openedInGeneration !== this.#compute.generation || !this.#compute.isRunning) {
      await this.#openDocument();
    }
  }

  /** Makes sure exact counts for the estimator exist; rough needs no work. */
  async count(estimator: Estimator): Promise<void> {
    if (estimator === 'rough' || this.exactByEncoding[estimator] || !this.transcript) {
      this.status = this.transcript ? 'ready' : 'empty';
      return;
    }
    const request = ++this.#countRequest;
    const transcript = this.transcript;
    this.status = 'counting';
    this.progress = { done: 0, total: transcript.messages.length };
    try {
      await this.ensureOpen();
      const onProgress = workerCallback((done: number, total: number) => {
        if (request === this.#countRequest) this.progress = { done, total };
      });
      const counts = await this.#compute.run((api) =>
        api.countExact(this.#documentId, estimator, onProgress),
      );
      // A newer request (another estimator, another transcript) supersedes this one.
      if (request !== this.#countRequest || transcript !== this.transcript) return;
      this.exactByEncoding = { ...this.exactByEncoding, [estimator]: counts };
      this.status = 'ready';
      this.progress = null;
      this.#changed();
    } catch (error) {
      if (request === this.#countRequest) this.#fail(error);
    }
  }

  #reset(transcript: Transcript): void {
    this.#countRequest += 1;
    this.transcript = transcript;
    this.rough = null;
    this.exactByEncoding = {};
    this.error = null;
    this.revision = null;
    this.progress = null;
    this.status = 'loading';
  }

  async #openDocument(): Promise<void> {
    const transcript = this.transcript;
    if (!transcript) return;
    const opened = await this.#compute.run((api) =>
      api.openDocument(
        this.#documentId,
        $state.snapshot(transcript.messages) as Transcript['messages'],
        this.#strategyName(),
        {
          tools: $state.snapshot(transcript.metadata.tools ?? []),
          compactionPoints: $state.snapshot(transcript.metadata.compactionPoints),
        },
      ),
    );
    this.#openedInGeneration = this.#compute.generation;
    if (this.transcript !== transcript) return;
    this.rough = { perMessage: opened.perMessage, total: opened.total };
    this.revision = opened.revision;
    this.#changed();
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
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
