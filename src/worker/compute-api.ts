import type { ImportError } from '../core/import/import-error.ts';
import type { ImportOptions, ImportResult } from '../core/import/import-result.ts';
import type { ImportProgress } from '../core/lab/import-progress.ts';
import type { CompressorState } from '../core/compression/compressor-state.ts';
import type { CompressionConfig } from '../core/config/compression-config.ts';
import type { ExactBasis } from '../core/lab/create-planner.ts';
import type { LabCompression } from '../core/lab/lab-compression.ts';
import type { LabPlan } from '../core/lab/lab-plan.ts';
import { err, ok, type Result } from '../core/shared/result.ts';
import type { SummaryRequest } from '../core/compression/summarizer.ts';
import { findStrategy } from '../core/strategies/strategy-registry.ts';
import type { Strategy } from '../core/strategies/strategy.ts';
import type { StrategyName } from '../core/strategies/strategy-names.ts';
import type { Estimator, TokenEncoding } from '../core/tokens/estimator.ts';
import type { Message } from '../core/transcript/message.ts';
import type { ToolSchema } from '../core/transcript/transcript.ts';
import type { CompareError, CompareProgress, Comparison } from '../core/comparison/comparison.ts';
import { cancelCompareRun, runCompare, type CompareRequest } from './compare-service.ts';
import { runLabCompaction, type LabCompressOptions } from './compress-service.ts';
import { countTextCooperatively } from './count-text-cooperatively.ts';
import { importBlob } from './import-service.ts';
import { LabDocuments, type DocumentContext } from './lab-documents.ts';
import { createTiktokenCounter } from './tiktoken-counter.ts';
import type { ExactCounts } from './token-documents.ts';

export type { DocumentContext } from './lab-documents.ts';
export type { LabCompressOptions } from './compress-service.ts';
export type { CompareRequest } from './compare-service.ts';

/** A plan request from the page (the strategy by name: the worker protocol is an edge). */
export interface LabPlanOptions {
  readonly strategy: StrategyName;
  readonly config: CompressionConfig;
  /** The session's compressor state (a replayed result carries its compaction count). */
  readonly state?: CompressorState;
  readonly estimator: Estimator;
  /** Clock for the failure cooldown; the worker's own when absent. */
  readonly nowMs?: number;
}

/** A conversation the page holds (the live chat) compacted in the worker. */
export interface ConversationCompactRequest extends LabCompressOptions {
  readonly messages: Message[];
  readonly tools: ToolSchema[];
}

const documents = new LabDocuments();

/** A long exact count yields this often, so plan requests are answered while it runs. */
const COUNT_SLICE_MS = 12;

export interface RoughCounts {
  perMessage: number[];
  total: number;
}

/** A document the worker opened: its rough counts and the revision later plans refer to. */
export interface OpenedDocument extends RoughCounts {
  revision: number;
}

export interface ImportedDocument {
  result: ImportResult;
  /** Set when the import was opened as a document (`openAs`). */
  opened: OpenedDocument | null;
}

export interface WorkerImportOptions extends ImportOptions {
  /** On success, open the transcript as this document, so the page need not send it back. */
  openAs?: string;
  /** Whose rough estimator measures it. */
  strategy?: StrategyName;
}

/** The strategy a request names; an unknown name is a protocol error, not a silent default. */
function strategyNamed(name: StrategyName | undefined): Strategy {
  const strategy = findStrategy(name ?? 'hermes-2026-04');
  if (!strategy) throw new Error(`Unknown strategy '${name}'`);
  return strategy;
}

/** Rough counts of a document's messages (or of its newest `tail` messages) under a strategy's estimator. */
function roughCounts(documentId: string, strategyName: StrategyName | undefined, tail?: number): RoughCounts {
  const strategy = strategyNamed(strategyName);
  const basis = documents.planner(documentId).rough(strategy.preset);
  const perMessage = Array.from(
    tail === undefined ? basis.tokens : basis.tokens.subarray(basis.tokens.length - tail),
  );
  return { perMessage, total: basis.messagesTokens };
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
  result: Result<ImportResult, ImportError>,
  options: WorkerImportOptions,
): Result<ImportedDocument, ImportError> {
  if (!result.ok) return result;
  const transcript = result.value.transcript;
  if (!options.openAs) return ok({ result: result.value, opened: null });
  const revision = documents.open(options.openAs, transcript.messages, {
    tools: transcript.metadata.tools ?? [],
    compactionPoints: transcript.metadata.compactionPoints,
  });
  return ok({
    result: result.value,
    opened: { ...roughCounts(options.openAs, options.strategy), revision },
  });
}

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
  /** Opens (or replaces) a transcript held by the worker and returns its rough counts. */
  openDocument(
    documentId: string,
    messages: Message[],
    strategy: StrategyName,
    context: DocumentContext = {},
  ): OpenedDocument {
    const revision = documents.open(documentId, messages, context);
    return { ...roughCounts(documentId, strategy), revision };
  },

  /** Appends new turns; returns the rough counts of the appended messages only. */
  appendMessages(documentId: string, messages: Message[], strategy: StrategyName): OpenedDocument {
    const revision = documents.append(documentId, messages);
    return { ...roughCounts(documentId, strategy, messages.length), revision };
  },

  closeDocument(documentId: string): void {
    documents.close(documentId);
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
      perMessage: counts.perMessage.slice(),
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

  /** Imports a file read in the worker (`file.stream()`), reporting `{bytes, totalBytes, messages}`. */
  async importFile(
    file: Blob,
    options: WorkerImportOptions,
    onProgress?: (progress: ImportProgress) => void,
  ): Promise<Result<ImportedDocument, ImportError>> {
    const format = options.format ? { format: options.format } : {};
    return importOpened(await importBlob(file, format, quietly(onProgress)), options);
  },

  /** Imports pasted text. */
  async importText(
    text: string,
    options: WorkerImportOptions,
  ): Promise<Result<ImportedDocument, ImportError>> {
    const format = options.format ? { format: options.format } : {};
    return importOpened(await importBlob(new Blob([text]), format), options);
  },

  /**
   * The context map and explanation for a document under some settings. Per-message work is
   * cached, so after the first plan of a preset this takes milliseconds on 10,000 messages.
   * Exact counts are used when the estimator asks for them and they are complete.
   */
  async plan(documentId: string, options: LabPlanOptions): Promise<Result<LabPlan, { message: string }>> {
    try {
      const strategy = strategyNamed(options.strategy);
      const exact = options.estimator === 'rough' ? null : await exactBasis(documentId, options.estimator);
      return ok(
        documents.planner(documentId).plan(strategy, {
          config: options.config,
          ...(options.state ? { state: options.state } : {}),
          estimator: options.estimator,
          exact,
          nowMs: options.nowMs ?? Date.now(),
          revision: documents.revision(documentId),
          clock: () => performance.now(),
        }),
      );
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
  ): Promise<Result<LabCompression & { resultRevision: number | null }, { message: string }>> {
    const remote = summarize && summarizerLabel ? { label: summarizerLabel, summarize } : null;
    let strategy: Strategy;
    try {
      strategy = strategyNamed(options.strategy);
    } catch (error) {
      return err({ message: error instanceof Error ? error.message : String(error) });
    }
    const planner = documents.planner(documentId);
    const compressed = await runLabCompaction(
      { messages: planner.messages, tools: planner.tools, prepared: planner.prepared(strategy) },
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
    return ok({ ...compressed.value, resultRevision });
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
          sizeCaches: documents.sizeCaches(documentId),
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
