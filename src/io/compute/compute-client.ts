import { wrap, proxy, type Remote } from 'comlink';
import type { ComputeApi } from '../../worker/compute-api.ts';

/**
 * Replies that are `Result` unions. comlink's `Remote` type turns `Promise<A | B>` into
 * `Promise<A> | Promise<B>`, which defeats inference; callers name the joined type instead.
 */
export type PlanReply = Awaited<ReturnType<ComputeApi['plan']>>;
export type CompressReply = Awaited<ReturnType<ComputeApi['compress']>>;
export type CompactReply = Awaited<ReturnType<ComputeApi['compactConversation']>>;
export type CompareReply = Awaited<ReturnType<ComputeApi['compare']>>;
export type ImportReply = Awaited<ReturnType<ComputeApi['importFile']>>;
export type StoreDocumentReply = Awaited<ReturnType<ComputeApi['storeDocument']>>;
export type OpenStoredSessionReply = Awaited<ReturnType<ComputeApi['openStoredSession']>>;
export type DeleteSessionReply = Awaited<ReturnType<ComputeApi['deleteSession']>>;
export type PinStoredMessageReply = Awaited<ReturnType<ComputeApi['pinStoredMessage']>>;

// The worker's request and reply shapes, for the state layer (which may not import the worker).
export type {
  CompareRequest,
  ConversationCompactRequest,
  DocumentContext,
  ExactCounts,
  ImportedDocument,
  ImportSummary,
  LabCompressOptions,
  LabPlanOptions,
  LineageExportRequest,
  MessageSummary,
  OpenedDocument,
  OpenedSession,
  PinStoredMessageRequest,
  RoughCounts,
  StoreDocumentRequest,
  StoredConversation,
  StoredDocument,
  WorkerImportOptions,
} from '../../worker/compute-api.ts';

export type WorkerFactory = () => Worker;

export class ComputeCancelledError extends Error {
  override readonly name = 'ComputeCancelledError';
  constructor() {
    super('The computation was cancelled.');
  }
}

/**
 * Owns the worker's lifecycle: starts it lazily on the first call, and cancels a running
 * computation by terminating the worker (a synchronous tokeniser loop cannot be interrupted
 * any other way). The next call starts a fresh worker; `generation` tells callers that
 * documents they opened in the old one are gone and must be reopened.
 */
export class ComputeClient {
  readonly #createWorker: WorkerFactory;
  #worker: Worker | null = null;
  #api: Remote<ComputeApi> | null = null;
  #generation = 0;

  constructor(createWorker: WorkerFactory) {
    this.#createWorker = createWorker;
  }

  /** Increases every time a new worker starts. */
  get generation(): number {
    return this.#generation;
  }

  get isRunning(): boolean {
    return this.#worker !== null;
  }

  #ensureApi(): Remote<ComputeApi> {
    if (!this.#api) {
      this.#worker = this.#createWorker();
      this.#api = wrap<ComputeApi>(this.#worker);
      this.#generation += 1;
    }
    return this.#api;
  }

  /**
   * Runs `task` against the worker. When `signal` aborts, the worker is terminated and the
   * returned promise rejects with ComputeCancelledError.
   */
  run<T>(task: (api: Remote<ComputeApi>) => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(new ComputeCancelledError());
    const api = this.#ensureApi();
    if (!signal) return task(api);
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        this.terminate();
        reject(new ComputeCancelledError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      task(api).then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }

  terminate(): void {
    this.#worker?.terminate();
    this.#worker = null;
    this.#api = null;
  }
}

/** Wraps a callback so the worker can call it across the boundary. */
export const workerCallback = <T extends (...args: never[]) => unknown>(callback: T): T => proxy(callback);
