import { transfer } from 'comlink';
import type { ImportError } from '../core/import/import-error.ts';
import type { ImportOptions, ImportResult } from '../core/import/import-result.ts';
import type { ImportProgress } from '../core/lab/import-progress.ts';
import type { CompressorState } from '../core/compression/compressor-state.ts';
import type { CompressionConfig } from '../core/config/compression-config.ts';
import type { ExactBasis } from '../core/lab/create-planner.ts';
import type { LabCompression } from '../core/lab/lab-compression.ts';
import { summaryPromptPreview, type SummaryPromptPreview } from '../core/lab/summary-prompt-preview.ts';
import type { LiveLoopContext } from '../core/lab/lab-plan.ts';
import { packedOutputBuffers, packLabPlan, type PackedLabPlan } from '../core/lab/packed-pruned-outputs.ts';
import type { PresetName } from '../core/presets/preset-name.ts';
import { findMessages } from '../core/lab/find-message.ts';
import type { LineageSegmentDescription } from '../core/sessions/describe-lineage-segment.ts';
import { err, ok, type Result } from '../core/shared/result.ts';
import type { SummaryRequest } from '../core/compression/summarizer.ts';
import { findStrategy } from '../core/strategies/strategy-registry.ts';
import type { Strategy } from '../core/strategies/strategy.ts';
import type { StrategyName } from '../core/strategies/strategy-names.ts';
import type { Estimator, TokenEncoding } from '../core/tokens/estimator.ts';
import type { Message } from '../core/transcript/message.ts';
import type { CompareError, CompareProgress, Comparison } from '../core/comparison/comparison.ts';
import { cancelCompareRun, runCompare, type CompareRequest } from './compare-service.ts';
import type { ToolSchema, TranscriptMetadata } from '../core/transcript/transcript.ts';
import type { SearchHit, SearchOptions } from '../io/db/search-index.ts';
import type { CreateSessionInput } from '../io/db/session-repository.ts';
import type { SessionNotFoundError } from '../io/db/session-store-error.ts';
import type { StoreInBatchesError } from '../io/db/store-session-in-batches.ts';
import type { StorageFullError } from '../io/db/storage-full-error.ts';
import type { StorageEstimateBytes } from '../io/db/browser-storage.ts';
import { Cancellations } from './cancellations.ts';
import {
  appendedRoughCounts,
  documentRows,
  openedDocument,
  type MessageSummary,
  type OpenedDocument,
  type RoughCounts,
} from './document-view.ts';
import { runLabCompaction, type LabCompressOptions } from './compress-service.ts';
import { countTextCooperatively } from './count-text-cooperatively.ts';
import { importBlob, type ImportCancelledError } from './import-service.ts';
import { StoreActivity } from './store-activity.ts';
import { LabDocuments, type DocumentContext } from './lab-documents.ts';
import {
  describeLineage,
  exportLineageBlob,
  openStoredSession,
  pinStoredMessage,
  type LineageExportRequest,
  type OpenedSession,
  type PinStoredMessageError,
  type PinStoredMessageRequest,
} from './stored-sessions.ts';
import { createTiktokenCounter } from './tiktoken-counter.ts';
import { workerSessionStore } from './worker-session-store.ts';

export type { DocumentContext } from './lab-documents.ts';
export type { LabCompressOptions } from './compress-service.ts';
export type { CompareRequest } from './compare-service.ts';
export type { MessageSummary, OpenedDocument, RoughCounts } from './document-view.ts';
export type { ImportCancelledError } from './import-service.ts';
export type {
  LineageExportRequest,
  OpenedSession,
  PinStoredMessageError,
  PinStoredMessageRequest,
  StoredConversation,
} from './stored-sessions.ts';

/** A plan request from the page (the strategy by name: the worker protocol is an edge). */
export interface LabPlanOptions {
  readonly strategy: StrategyName;
  readonly config: CompressionConfig;
  /** The session's compressor state (a replayed result carries its compaction count). */
  readonly state?: CompressorState;
  readonly estimator: Estimator;
  /** Clock for the failure cooldown; the worker's own when absent. */
  readonly nowMs?: number;
  /** Indices of pinned messages: the plan keeps them as the compaction will. */
  readonly pinned?: readonly number[];
  /** Set for a chat session's request context: the trigger is judged as the live loop judges it. */
  readonly live?: LiveLoopContext | null;
}

/** A conversation the page holds (the live chat) compacted in the worker. */
export interface ConversationCompactRequest extends LabCompressOptions {
  readonly messages: Message[];
  readonly tools: ToolSchema[];
}

const documents = new LabDocuments();
const cancellations = new Cancellations();
/** The last summariser prompt of each compaction's result document (`compress`, `summaryPrompt`). */
const summaryPrompts = new Map<string, string>();

/** Exact counting waits while a transcript is being stored (store-activity.ts). */
const storeActivity = new StoreActivity();

/** A long exact count yields this often, so plan requests are answered while it runs. */
const COUNT_SLICE_MS = 12;
/** Storing reports its progress at most this often. */
const STORE_PROGRESS_INTERVAL_MS = 100;

/** Exact per-message counts, typed as the rough ones are. */
export interface ExactCounts {
  perMessage: Int32Array;
  total: number;
  /** How many messages were actually run through the tokenizer for this call. */
  tokenized: number;
}

/** What the importer reported, without the transcript: that stays in the worker. */
export interface ImportSummary extends Omit<ImportResult, 'transcript'> {
  metadata: TranscriptMetadata;
}

export interface ImportedDocument {
  result: ImportSummary;
  /** Set when the import was opened as a document (`openAs`). */
  opened: OpenedDocument | null;
}

export interface WorkerImportOptions extends ImportOptions {
  /** On success, open the transcript as this document, so the page need not send it back. */
  openAs?: string;
  /** Whose rough estimator measures it. */
  strategy?: StrategyName;
  /** A token the page may pass to `cancel` while the file is read. */
  cancelToken?: string;
}

/** Storing a document as a new session (an import, or the demo before its first continuation). */
export interface StoreDocumentRequest {
  readonly documentId: string;
  /** The revision the page shows: a document replaced meanwhile is not stored. */
  readonly revision: number;
  readonly session: CreateSessionInput;
  readonly cancelToken?: string;
  /** Indices of the messages the user pinned (an unstored transcript keeps its pins in memory until now). */
  readonly pinned?: readonly number[];
}

export interface StoredDocument {
  readonly id: string;
  readonly title: string | null;
}

export interface DocumentChangedError {
  readonly type: 'DocumentChanged';
  readonly message: string;
}

export type StoreDocumentError =
  StoreInBatchesError | DocumentChangedError | { type: 'StoreFailed'; message: string };

/** The strategy a request names; an unknown name is a protocol error, not a silent default. */
function strategyNamed(name: StrategyName | undefined): Strategy {
  const strategy = findStrategy(name ?? 'hermes-2026-04');
  if (!strategy) throw new Error(`Unknown strategy '${name}'`);
  return strategy;
}

const yieldToEvents = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/** A comlink callback returns a promise; a page that went away must not become an unhandled rejection. */
function quietly<T extends unknown[]>(
  callback: ((...args: T) => unknown) | undefined,
): ((...args: T) => void) | undefined {
  if (!callback) return undefined;
  return (...args) => void Promise.resolve(callback(...args)).catch(() => undefined);
}

function importOpened(
  result: Result<ImportResult, ImportError | ImportCancelledError>,
  options: WorkerImportOptions,
): Result<ImportedDocument, ImportError | ImportCancelledError> {
  if (!result.ok) return result;
  const { transcript, ...rest } = result.value;
  const summary: ImportSummary = { ...rest, metadata: transcript.metadata };
  if (!options.openAs) return ok({ result: summary, opened: null });
  documents.open(
    options.openAs,
    transcript.messages,
    { tools: transcript.metadata.tools ?? [], compactionPoints: transcript.metadata.compactionPoints },
    { metadata: transcript.metadata },
  );
  return ok({
    result: summary,
    opened: openedDocument(documents, options.openAs, strategyNamed(options.strategy).preset),
  });
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Exact tokens of the tool schemas as sent (their JSON), cached per document revision and encoding. */
const toolsTokensCache = new Map<string, number>();

async function exactBasis(documentId: string, encoding: TokenEncoding): Promise<ExactBasis | null> {
  const counts = documents.tokens.completeCounts(documentId, encoding);
  if (!counts) return null;
  const key = `${documentId}\u0000${documents.revision(documentId)}\u0000${encoding}`;
  let toolsTokens = toolsTokensCache.get(key);
  if (toolsTokens === undefined) {
    const tools = documents.context(documentId).tools ?? [];
    toolsTokens = tools.length > 0 ? (await createTiktokenCounter(encoding)).count(JSON.stringify(tools)) : 0;
    toolsTokensCache.set(key, toolsTokens);
  }
  return { encoding, perMessage: counts.perMessage, toolsTokens };
}

/**
 * Everything the page asks of the worker. Plain data in and out (structured clone);
 * callbacks arrive as comlink proxies; expected failures come back as `Result` values.
 */
export const computeApi = {
  /**
   * Opens (or replaces) a transcript the page sends (the demo: small ones) and returns what the
   * page draws of it. `metadata` is kept for the page's view of the document.
   */
  openDocument(
    documentId: string,
    messages: Message[],
    strategy: StrategyName,
    context: DocumentContext = {},
    metadata: TranscriptMetadata | null = null,
  ): OpenedDocument {
    documents.open(documentId, messages, context, { metadata });
    return openedDocument(documents, documentId, strategyNamed(strategy).preset);
  },

  /**
   * Builds the built-in demo here and opens it. Built on the page, it was one main-thread task
   * of 40–65 ms on every first screen, and copying it to the worker another of ~30 ms.
   */
  async openDemo(documentId: string, strategy: StrategyName): Promise<OpenedDocument> {
    const { buildDemoTranscript } = await import('../core/demo/demo-transcript.ts');
    const demo = buildDemoTranscript();
    documents.open(
      documentId,
      demo.messages,
      { tools: demo.metadata.tools ?? [], compactionPoints: demo.metadata.compactionPoints },
      { metadata: demo.metadata },
    );
    return openedDocument(documents, documentId, strategyNamed(strategy).preset);
  },

  /** Opens a copy of another document (a replay result becoming the transcript on screen). */
  copyDocument(
    fromDocumentId: string,
    toDocumentId: string,
    strategy: StrategyName,
    metadata: TranscriptMetadata,
  ): OpenedDocument {
    documents.open(
      toDocumentId,
      [...documents.messages(fromDocumentId)],
      { ...documents.context(fromDocumentId), compactionPoints: metadata.compactionPoints },
      { metadata },
    );
    return openedDocument(documents, toDocumentId, strategyNamed(strategy).preset);
  },

  /** Appends new turns; returns the rough counts of the appended messages only. */
  appendMessages(
    documentId: string,
    messages: Message[],
    strategy: StrategyName,
  ): RoughCounts & { revision: number } {
    const revision = documents.append(documentId, messages);
    return {
      ...appendedRoughCounts(documents, documentId, strategyNamed(strategy).preset, messages.length),
      revision,
    };
  },

  /**
   * Appends messages to a document at `revision` (the live chat's newest turn) and returns what
   * the page draws of it now; null when the document is no longer at that revision (something
   * else was opened meanwhile), so nothing lands in the wrong transcript. Only the new messages
   * are measured.
   */
  appendToDocument(
    documentId: string,
    revision: number,
    messages: Message[],
    strategy: StrategyName,
  ): OpenedDocument | null {
    if (!documents.isAt(documentId, revision)) return null;
    documents.append(documentId, messages);
    return openedDocument(documents, documentId, strategyNamed(strategy).preset);
  },

  /** The message list's rows `[start, end)` of a document at `revision`; null once it changed. */
  documentRows(documentId: string, revision: number, start: number, end: number): MessageSummary[] | null {
    if (!documents.isAt(documentId, revision)) return null;
    return documentRows(documents.messages(documentId), start, end);
  },

  /** One whole message of a document at `revision` (the detail view); null once it changed or out of range. */
  documentMessage(documentId: string, revision: number, index: number): Message | null {
    if (!documents.isAt(documentId, revision)) return null;
    return documents.messages(documentId)[index] ?? null;
  },

  /** Every message whose text, tool name or arguments hold `query`, in order; none once the document changed. */
  findInDocument(documentId: string, revision: number, query: string): number[] {
    if (!documents.isAt(documentId, revision)) return [];
    return findMessages(documents.messages(documentId), query);
  },

  closeDocument(documentId: string): void {
    documents.close(documentId);
    summaryPrompts.delete(documentId);
  },

  /**
   * Exact per-message counts; only messages not counted before are tokenised. A long count
   * runs in slices so other requests (plans after a settings change) are not held up.
   */
  async countExact(
    documentId: string,
    encoding: TokenEncoding,
    onProgress?: (done: number, total: number) => void,
  ): Promise<ExactCounts & { elapsedMs: number }> {
    const counter = await createTiktokenCounter(encoding);
    const started = performance.now();
    const report = quietly(onProgress);
    let tokenized = 0;
    for (;;) {
      // A store in progress goes first: the page draws rough counts until the exact ones come.
      await storeActivity.idle();
      const sliceEnd = performance.now() + COUNT_SLICE_MS;
      const step = documents.tokens.countExactStep(
        documentId,
        encoding,
        counter,
        () => performance.now() > sliceEnd,
        report,
      );
      tokenized += step.tokenized;
      if (step.done >= step.total) break;
      await yieldToEvents();
    }
    const counts = documents.tokens.completeCounts(documentId, encoding)!;
    return {
      perMessage: Int32Array.from(counts.perMessage),
      total: counts.total,
      tokenized,
      elapsedMs: performance.now() - started,
    };
  },

  /** Exact tokens of one text (benchmarks, the chat input), yielding to other requests while long. */
  async countText(text: string, encoding: TokenEncoding): Promise<number> {
    const counter = await createTiktokenCounter(encoding);
    return countTextCooperatively(text, counter, {
      sliceMs: COUNT_SLICE_MS,
      now: () => performance.now(),
      yieldToEvents,
    });
  },

  /**
   * Imports a file read in the worker (`Blob.slice` reads), reporting `{bytes, totalBytes, messages}`.
   * The transcript stays here: the page gets the importer's report and, with `openAs`, what it
   * draws of the opened document.
   */
  async importFile(
    file: Blob,
    options: WorkerImportOptions,
    onProgress?: (progress: ImportProgress) => void,
  ): Promise<Result<ImportedDocument, ImportError | ImportCancelledError>> {
    const format = options.format ? { format: options.format } : {};
    const signal = cancellations.start(options.cancelToken);
    try {
      return importOpened(await importBlob(file, format, quietly(onProgress), signal), options);
    } finally {
      cancellations.finish(options.cancelToken);
    }
  },

  /** Imports pasted text. */
  async importText(
    text: string,
    options: WorkerImportOptions,
  ): Promise<Result<ImportedDocument, ImportError | ImportCancelledError>> {
    const format = options.format ? { format: options.format } : {};
    return importOpened(await importBlob(new Blob([text]), format), options);
  },

  /** Cancels the import or store the page started with this token; it cleans up after itself. */
  cancel(token: string): void {
    cancellations.cancel(token);
  },

  /**
   * Stores a document the worker holds as a new session, in batches (progress: messages
   * written), from the worker's own copy: the page never sends a large transcript back. Nothing
   * is kept when it is cancelled or fails. Exact counting waits until it settles.
   */
  async storeDocument(
    request: StoreDocumentRequest,
    onProgress?: (stored: number) => void,
    storageEstimate?: () => Promise<StorageEstimateBytes | null>,
  ): Promise<Result<StoredDocument, StoreDocumentError>> {
    if (!documents.isAt(request.documentId, request.revision)) {
      return err({ type: 'DocumentChanged', message: 'the transcript changed before it was stored' });
    }
    const messages = documents.messages(request.documentId);
    const report = quietly(onProgress);
    const signal = cancellations.start(request.cancelToken);
    let lastReport = 0;
    try {
      const stored = await storeActivity.during(() =>
        workerSessionStore().createSessionInBatches(request.session, messages, {
          ...(signal ? { signal } : {}),
          // The page's storage manager, when it passes one: the figures its storage panel shows.
          ...(storageEstimate ? { storageEstimate } : {}),
          ...(request.pinned ? { pinned: request.pinned } : {}),
          onProgress: (count) => {
            const now = performance.now();
            if (now - lastReport < STORE_PROGRESS_INTERVAL_MS && count < messages.length) return;
            lastReport = now;
            report?.(count);
          },
        }),
      );
      if (!stored.ok) return stored;
      return ok({ id: stored.value.id, title: stored.value.title });
    } catch (error) {
      return err({ type: 'StoreFailed', message: messageOf(error) });
    } finally {
      cancellations.finish(request.cancelToken);
    }
  },

  /** Opens a stored session's live transcript as a document, locating `messageId` in it. */
  async openStoredSession(
    documentId: string,
    sessionId: string,
    strategy: StrategyName,
    messageId: number | null = null,
  ): Promise<Result<OpenedSession, SessionNotFoundError | { type: 'LoadFailed'; message: string }>> {
    try {
      return await openStoredSession(
        documents,
        workerSessionStore(),
        { documentId, sessionId, messageId },
        strategyNamed(strategy).preset,
      );
    } catch (error) {
      return err({ type: 'LoadFailed', message: messageOf(error) });
    }
  },

  /**
   * Stores the pin of a message of the document on screen on the session that stores it
   * (`pinStoredMessage`: the message's stored id, found by index).
   */
  async pinStoredMessage(request: PinStoredMessageRequest): Promise<Result<void, PinStoredMessageError>> {
    try {
      return await pinStoredMessage(documents, workerSessionStore(), request);
    } catch (error) {
      return err({ type: 'PinFailed', message: messageOf(error) });
    }
  },

  /** Search over every stored message (the sessions panel), read here so no row reaches the page. */
  searchSessions(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    return workerSessionStore().search(query, options);
  },

  /** The lineage view's description of each session of the chain through `sessionId`. */
  describeLineage(
    sessionId: string,
    preset: PresetName,
  ): Promise<Array<{ sessionId: string; description: LineageSegmentDescription }>> {
    return describeLineage(workerSessionStore(), sessionId, preset);
  },

  /** A conversation's export as a Blob, ready for a download. */
  exportLineage(request: LineageExportRequest): Promise<Blob> {
    return exportLineageBlob(workerSessionStore(), request);
  },

  /** Deletes a session with its messages and search postings (the postings are read here, not on the page). */
  deleteSession(sessionId: string): Promise<Result<void, StorageFullError | SessionNotFoundError>> {
    return workerSessionStore().deleteSession(sessionId);
  },

  /**
   * The context map and explanation for a document under some settings. Per-message work is
   * cached, so after the first plan of a preset this takes milliseconds on 10,000 messages.
   * Exact counts are used when the estimator asks for them and they are complete. Its pruned
   * outputs travel packed (`unpackLabPlan` on the page).
   */
  async plan(
    documentId: string,
    options: LabPlanOptions,
  ): Promise<Result<PackedLabPlan, { message: string }>> {
    try {
      const strategy = strategyNamed(options.strategy);
      const exact = options.estimator === 'rough' ? null : await exactBasis(documentId, options.estimator);
      const packed = packLabPlan(
        documents.planner(documentId).plan(strategy, {
          config: options.config,
          ...(options.state ? { state: options.state } : {}),
          estimator: options.estimator,
          exact,
          nowMs: options.nowMs ?? Date.now(),
          live: options.live ?? null,
          revision: documents.revision(documentId),
          clock: () => performance.now(),
          ...(options.pinned ? { pinned: options.pinned } : {}),
        }),
      );
      // The packed outputs' arrays are this reply's own: handed to the page, not copied.
      return transfer(ok(packed), packedOutputBuffers(packed.prunedPacked));
    } catch (error) {
      return err({ message: error instanceof Error ? error.message : String(error) });
    }
  },

  /** Prepares a strategy's per-message caches ahead of its first plan. */
  warmPlan(documentId: string, strategy: StrategyName): void {
    documents.planner(documentId).prepared(strategyNamed(strategy));
  },

  /**
   * Runs core compress() on a document. Without `summarize` the offline summariser writes the
   * summary; with it (a comlink proxy to the page) the page's provider does. `openResultAs`
   * opens the output as a new document, ready for "replay again".
   */
  async compress(
    documentId: string,
    options: LabCompressOptions & { openResultAs?: string },
    summarizerLabel: string | null,
    summarize?: (request: SummaryRequest) => Promise<string>,
  ): Promise<
    Result<
      LabCompression & { resultRevision: number | null; promptPreview: SummaryPromptPreview | null },
      { message: string }
    >
  > {
    const remote = summarize && summarizerLabel ? { label: summarizerLabel, summarize } : null;
    let strategy: Strategy;
    try {
      strategy = strategyNamed(options.strategy);
    } catch (error) {
      return err({ message: error instanceof Error ? error.message : String(error) });
    }
    const planner = documents.planner(documentId);
    const compressed = await runLabCompaction(
      {
        messages: planner.messages,
        tools: planner.tools,
        prepared: planner.prepared(strategy),
        caches: documents.caches(documentId),
      },
      strategy,
      options,
      remote,
      () => performance.now(),
    );
    if (!compressed.ok) return compressed;
    let resultRevision: number | null = null;
    if (options.openResultAs) {
      // Foreign compaction points index the old list; only the tool schemas carry over.
      const tools = documents.context(documentId).tools ?? [];
      resultRevision = documents.open(options.openResultAs, compressed.value.messages, { tools });
    }
    // A compaction that changed nothing returns its input, which the page already views through
    // the document: a second copy of a 50,000-message transcript is not sent.
    const value =
      compressed.value.skipped === null
        ? compressed.value
        : { ...compressed.value, messages: [], diff: { ...compressed.value.diff, after: [] } };
    // The summariser prompt stays here and the page gets its start (`summaryPrompt` gives all of
    // it): a 50,000-message replay's prompt is 20 MB, and structured-cloning it into the page
    // was a 40-60 ms main-thread task with the collection it brought.
    // A compaction without a summariser call (reviewed bodies committed) keeps the prompt that
    // wrote them: it is still the run's prompt.
    const prompt = value.summaries[0]?.prompt ?? null;
    if (prompt !== null) summaryPrompts.set(options.openResultAs ?? documentId, prompt);
    return ok({
      ...value,
      summaries: value.summaries.map((summary) =>
        summary.prompt === null ? summary : { ...summary, prompt: null },
      ),
      promptPreview: prompt === null ? null : summaryPromptPreview(prompt),
      resultRevision,
    });
  },

  /**
   * The whole summariser prompt of the last `compress` that opened its result as `documentId`
   * (or, without one, ran on it); null when that compaction called no summariser.
   */
  summaryPrompt(documentId: string): string | null {
    return summaryPrompts.get(documentId) ?? null;
  },

  /**
   * Compacts a conversation the page holds (the live chat) with the same operation the lab
   * uses. The summariser is the page's (a comlink proxy) or, without one, the offline one.
   */
  async compactConversation(
    request: ConversationCompactRequest,
    summarizerLabel: string | null,
    summarize?: (request: SummaryRequest) => Promise<string>,
  ): Promise<Result<LabCompression, { message: string }>> {
    const remote = summarize && summarizerLabel ? { label: summarizerLabel, summarize } : null;
    let strategy: Strategy;
    try {
      strategy = strategyNamed(request.strategy);
    } catch (error) {
      return err({ message: error instanceof Error ? error.message : String(error) });
    }
    return runLabCompaction(
      { messages: request.messages, tools: request.tools },
      strategy,
      request,
      remote,
      () => performance.now(),
    );
  },

  /**
   * Compares strategies on a document (ROUND2 §2): per entry the plan, the compaction at the
   * current point, its fidelity and ledger, and the whole session replayed. Exact counts are
   * used when the estimator's are complete. Only rows, lanes and lost-fact lists come back,
   * never the transcript. `cancelCompare(runId)` ends it at its next yield.
   */
  async compare(
    documentId: string,
    request: CompareRequest,
    onProgress?: (progress: CompareProgress) => void,
  ): Promise<Result<Comparison, CompareError>> {
    try {
      const exact = request.estimator === 'rough' ? null : await exactBasis(documentId, request.estimator);
      return await runCompare(
        {
          planner: documents.planner(documentId),
          caches: documents.caches(documentId),
          exact,
        },
        request,
        quietly(onProgress),
      );
    } catch (error) {
      return err({ type: 'Failed', message: error instanceof Error ? error.message : String(error) });
    }
  },

  cancelCompare(runId: string): void {
    cancelCompareRun(runId);
  },
};

export type ComputeApi = typeof computeApi;
