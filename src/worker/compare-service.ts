import type { CompressionConfig } from '../core/config/compression-config.ts';
import type { CompareEntry } from '../core/comparison/compare-entry.ts';
import { compareStrategies } from '../core/comparison/compare-strategies.ts';
import type { CompareError, CompareProgress, Comparison } from '../core/comparison/comparison.ts';
import type { AssessmentRoute } from '../core/lab/assess-compaction.ts';
import type { ExactBasis, Planner } from '../core/lab/create-planner.ts';
import type { MessageCaches } from '../core/lab/message-caches.ts';
import { err, type Result } from '../core/shared/result.ts';
import type { MessageCounting } from '../core/simulation/message-counting.ts';
import { HOST_PRESET } from '../core/strategies/strategy-kit.ts';
import { countMessageTokens } from '../core/tokens/count-message-tokens.ts';
import { estimateMessageTokensRough } from '../core/tokens/estimate-messages-tokens-rough.ts';
import { estimateTokensRough } from '../core/tokens/estimate-tokens-rough.ts';
import { estimateToolsTokensRough } from '../core/tokens/estimate-tools-tokens-rough.ts';
import type { Estimator } from '../core/tokens/estimator.ts';
import { createTiktokenCounter } from './tiktoken-counter.ts';

/** A comparison as the page asks for it (the transcript stays in the worker). */
export interface CompareRequest {
  /** Names this run for `cancelCompare`. */
  readonly runId: string;
  readonly entries: readonly CompareEntry[];
  /** The base settings; their window is the one every entry is compared in. */
  readonly config: CompressionConfig;
  /** The map's estimator: exact counts are used when complete, else the host's rough estimate. */
  readonly estimator: Estimator;
  readonly route: AssessmentRoute;
  /** Replay the whole session under each entry (default true). */
  readonly simulate?: boolean;
  /** Indices of pinned messages: every entry keeps them verbatim. */
  readonly pinned?: readonly number[];
}

export interface CompareSource {
  readonly planner: Planner;
  /** What the document's planner derived from its messages, shared with the comparison. */
  readonly caches: MessageCaches;
  /** The document's exact counts in the request's encoding, when complete. */
  readonly exact: ExactBasis | null;
}

/** The worker holds the thread this long before it yields, so a cancel message gets through. */
const SLICE_MS = 12;
/** Progress reaches the page at most this often. */
const PROGRESS_MS = 100;

const runs = new Map<string, { aborted: boolean }>();

/** Cancels a running comparison; it ends at its next yield with a `Cancelled` error. */
export function cancelCompareRun(runId: string): void {
  const run = runs.get(runId);
  if (run) run.aborted = true;
}

const yieldToEvents = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

async function countingFor(source: CompareSource): Promise<MessageCounting> {
  const { planner, exact } = source;
  if (exact) {
    const counter = await createTiktokenCounter(exact.encoding);
    return {
      perMessage: exact.perMessage,
      toolsTokens: exact.toolsTokens,
      exact: true,
      countMessage: (message) => countMessageTokens(message, counter),
      countText: (text) => counter.count(text),
    };
  }
  // The planner measures the host's rough sizes into the shared cache first.
  const perMessage = planner.rough(HOST_PRESET).tokens;
  const sizeCache = source.caches.sizeCache(HOST_PRESET);
  return {
    perMessage,
    toolsTokens: estimateToolsTokensRough(planner.tools, HOST_PRESET),
    exact: false,
    countMessage: (message) => estimateMessageTokensRough(message, HOST_PRESET, sizeCache),
    countText: estimateTokensRough,
  };
}

/**
 * Runs a comparison on a document the worker holds, in slices: between them it yields to the
 * worker's event loop (so `cancelCompareRun` is heard) and reports progress, throttled.
 */
export async function runCompare(
  source: CompareSource,
  request: CompareRequest,
  onProgress?: (progress: CompareProgress) => void,
): Promise<Result<Comparison, CompareError>> {
  const run = { aborted: false };
  runs.set(request.runId, run);
  try {
    const counting = await countingFor(source);
    let sliceEnd = performance.now() + SLICE_MS;
    let reportedAt = 0;
    return await compareStrategies(
      {
        messages: source.planner.messages,
        tools: source.planner.tools,
        config: request.config,
        entries: request.entries,
        counting,
        exact: source.exact,
        route: request.route,
        planner: source.planner,
        caches: source.caches,
        simulate: request.simulate ?? true,
        ...(request.pinned ? { pinned: request.pinned } : {}),
      },
      {
        signal: run,
        onProgress: async (progress) => {
          const now = performance.now();
          if (now - reportedAt >= PROGRESS_MS || progress.done === progress.total) {
            reportedAt = now;
            onProgress?.(progress);
          }
          if (now > sliceEnd) {
            await yieldToEvents();
            sliceEnd = performance.now() + SLICE_MS;
          }
        },
      },
    );
  } catch (error) {
    return err({ type: 'Failed', message: error instanceof Error ? error.message : String(error) });
  } finally {
    runs.delete(request.runId);
  }
}
