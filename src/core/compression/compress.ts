/**
 * `compress()`: Hermes `ContextCompressor.compress` for both generations (hermes-reference
 * §5.0–5.9). Prune old tool results, place the head and tail boundaries, summarise the middle
 * with the injected summariser, assemble, and repair tool pairs. The input is never mutated;
 * on any skip or abort it is returned as is. The result also carries everything the UI needs
 * to explain what happened (pruning, boundary steps, prompt, summary role, repairs, tokens).
 */
import type { CompressionConfig } from '../config/compression-config.ts';
import type { DerivedThresholds } from '../config/derive-thresholds.ts';
import type { Preset } from '../presets/preset.ts';
import type { HermesRaised } from '../shared/hermes-raised.ts';
import { estimateMessagesTokensRough } from '../tokens/estimate-messages-tokens-rough.ts';
import type { Message } from '../transcript/message.ts';
import { assembleCompressed, type SummaryRole } from './assemble-compressed.ts';
import { deriveAutoFocusTopic } from './auto-focus-topic.ts';
import { type CompressorState, clearFailureCooldown } from './compressor-state.ts';
import { contentTextForContains } from './content-text.ts';
import { deterministicFallbackSummary, legacyFallbackSummary } from './fallback-summary.ts';
import { generateSummary, type SummaryGeneration } from './generate-summary.ts';
import { createHermesDocument, isDocumentFor, type HermesDocument } from './hermes-document.ts';
import { DB_PERSISTED_MARKER, repeatedCompressionWarning, stripSummaryPrefix } from './markers.ts';
import { type PrunedBoundaryPlan, planCompressionBoundaries } from './plan-compression.ts';
import type { PrunedToolOutput } from './prune-old-tool-results.ts';
import { isSummaryMessage } from './real-user-message.ts';
import { type ToolPairRepairs, sanitizeToolPairs } from './sanitize-tool-pairs.ts';
import { stripHistoricalMedia } from './strip-historical-media.ts';
import type { AbortSignalLike, Summarizer } from './summarizer.ts';

export interface CompressOptions {
  readonly config: CompressionConfig;
  readonly preset: Preset;
  readonly state: CompressorState;
  /** A manual `/compress <focus>`; 2026-07 derives one from recent user turns otherwise. */
  readonly focusTopic?: string;
  /** Manual `/compress`: clears the failure cooldown first. */
  readonly force?: boolean;
  /** Text a memory provider wants preserved in the summary (2026-07). */
  readonly memoryContext?: string;
  /** The caller's token count for this request (2026-04 measured savings against it). */
  readonly currentTokens?: number;
  /** Overrides the derived tail token budget (replays, tests). */
  readonly tailTokenBudgetOverride?: number;
  /** Today as `YYYY-MM-DD` for the temporal-anchoring rule (2026-07); null omits it. */
  readonly today?: string | null;
  /** The session's main model, so an identical summary model is not treated as separate. */
  readonly mainModel?: string | null;
  /**
   * The transcript's measurements and pruning candidates, kept across calls by the planner.
   * Measuring a large transcript is most of compress()'s cost; with the planner's document
   * nothing is measured twice.
   */
  readonly document?: HermesDocument;
  /**
   * A reviewed summary body to use instead of calling the summariser (committing an edited
   * summary). The prefix and markers are added as usual; no post-processing rewrites it.
   */
  readonly summaryOverride?: string;
}

export interface CompressDeps {
  readonly summarizer: Summarizer;
  /** Clock in milliseconds, for cooldowns. */
  readonly now: () => number;
  readonly signal?: AbortSignalLike;
}

/** Why compress() returned its input unchanged. */
export type CompressSkipReason =
  | 'too-few-messages'
  | 'hermes-raised'
  | 'no-compressible-window'
  | 'nothing-new-after-summary'
  | 'summary-failed-aborted';

/** The summariser call as Hermes makes it (`call_llm(task="compression", …)`). */
export interface SummarizerCall {
  readonly task: 'compression';
  readonly maxTokens: number | null;
  readonly model: string | null;
}

export interface CompressionResult {
  readonly messages: Message[];
  readonly state: CompressorState;
  readonly skipped: CompressSkipReason | null;
  /**
   * Where the generation reproduced raised (2026-04's one-liner on odd tool arguments, while
   * pruning): Hermes' compress() raised, so nothing is compacted and this says why.
   */
  readonly raised: HermesRaised | null;
  readonly thresholds: DerivedThresholds;
  /** Phase 1 replacements (indices are the input's; pruning keeps positions). */
  readonly pruned: readonly PrunedToolOutput[];
  readonly prunedCount: number;
  /** Phase 2, in indices of the input list. */
  readonly boundaries: PrunedBoundaryPlan['boundaries'];
  /** The input range actually summarised (after skipping an earlier handoff summary). */
  readonly summarizedRange: { readonly start: number; readonly end: number } | null;
  readonly previousSummaryUsed: string | null;
  readonly focusTopic: string | null;
  readonly prompt: string | null;
  readonly summarizerCall: SummarizerCall | null;
  readonly summaryBudgetTokens: number | null;
  /** The inserted summary text (prefixed; without the END MARKER), fallback included. */
  readonly summary: string | null;
  /** The summary body as written (no prefix): what a reviewer edits. */
  readonly summaryBody: string | null;
  readonly summaryRole: SummaryRole | null;
  readonly mergedIntoTail: boolean;
  readonly usedFallback: boolean;
  readonly aborted: boolean;
  /** Messages dropped without an LLM summary (fallback only). */
  readonly droppedCount: number;
  /** The summariser error when the summary failed. */
  readonly summaryError: string | null;
  /** The failure cooldown was active, so no summary call was made. */
  readonly summarySkippedForCooldown: boolean;
  readonly auxModelFailure: SummaryGeneration['auxModelFailure'];
  readonly repairedToolPairs: ToolPairRepairs;
  /** Messages whose old images were replaced (2026-07), in output indices. */
  readonly strippedMediaIndices: readonly number[];
  /** Rough message estimates before and after, under the preset's estimator. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly compressionCount: number;
  /** The repeated-compression warning once the session was compacted twice or more. */
  readonly warning: string | null;
}

const NO_REPAIRS: ToolPairRepairs = { removedResults: [], strippedCalls: [], stubbedCalls: [] };

/** The newest handoff summary in `[start, end)`, searched backwards. */
function findLatestSummary(
  messages: readonly Message[],
  start: number,
  end: number,
  preset: Preset,
): { index: number; body: string } | null {
  for (let index = end - 1; index >= start; index--) {
    const message = messages[index]!;
    if (isSummaryMessage(message, preset)) {
      return { index, body: stripSummaryPrefix(contentTextForContains(message.content), preset) };
    }
  }
  return null;
}

function stripPersistenceMarkers(messages: Message[]): Message[] {
  return messages.map((message) => {
    if (!(DB_PERSISTED_MARKER in message)) return message;
    const copy = { ...message };
    delete copy[DB_PERSISTED_MARKER];
    return copy;
  });
}

export async function compress(
  messages: readonly Message[],
  options: CompressOptions,
  deps: CompressDeps,
): Promise<CompressionResult> {
  const { preset } = options;
  const { summary: summarySwitches, assembly, gates } = preset;
  const realUsageVerdict = gates.antiThrash === 'real-usage';
  const document = isDocumentFor(options.document, messages, preset)
    ? options.document
    : createHermesDocument(messages, [], preset);
  const sizeCache = document.sizeCache;
  // Per-call reset (§5.0): the last error describes this call only. A forced run (manual
  // /compress) also clears the failure cooldown so it can retry at once.
  let state: CompressorState = { ...options.state, lastSummaryError: null };
  if (options.force) state = clearFailureCooldown(state);
  const plan = planCompressionBoundaries(messages, { ...options, state, document });
  const tokensBefore = plan.tokensBefore;
  const unchanged = (
    reason: CompressSkipReason,
    extra: Partial<CompressionResult> = {},
  ): CompressionResult => ({
    messages: [...messages],
    state,
    skipped: reason,
    raised: null,
    thresholds: plan.thresholds,
    pruned: plan.pruned,
    prunedCount: plan.prunedCount,
    boundaries: plan.boundaries,
    summarizedRange: null,
    previousSummaryUsed: null,
    focusTopic: null,
    prompt: null,
    summarizerCall: null,
    summaryBudgetTokens: null,
    summary: null,
    summaryBody: null,
    summaryRole: null,
    mergedIntoTail: false,
    usedFallback: false,
    aborted: false,
    droppedCount: 0,
    summaryError: null,
    summarySkippedForCooldown: false,
    auxModelFailure: null,
    repairedToolPairs: NO_REPAIRS,
    strippedMediaIndices: [],
    tokensBefore,
    tokensAfter: tokensBefore,
    compressionCount: state.compressionCount,
    warning: null,
    ...extra,
  });
  // A no-op is a strike for the 2026-07 anti-thrash breaker: it cannot shrink this transcript.
  const strike = (): CompressorState =>
    realUsageVerdict
      ? { ...state, ineffectiveCount: state.ineffectiveCount + 1, lastCompressionSavingsPercent: 0 }
      : state;

  if (plan.tooFewMessages) {
    state = strike();
    return unchanged('too-few-messages');
  }
  // Hermes raised inside pruning: the exception left compress() before anything changed, so
  // there is no strike and no count, only the refusal.
  if (plan.raised) {
    const { index: _index, ...raised } = plan.raised;
    return unchanged('hermes-raised', { raised });
  }
  const pruned = plan.prunedMessages;
  const { headEnd, tailStart } = plan.boundaries!;
  if (headEnd >= tailStart) {
    state = strike();
    return unchanged('no-compressible-window');
  }

  // Re-compression (2026-07): a handoff summary inside the window becomes the previous summary
  // and is not re-serialised; a previous summary with no handoff in sight belongs to another
  // session and is dropped.
  const previousSummaryBefore = state.previousSummary;
  let summarizedStart = headEnd;
  if (summarySwitches.rehydratesPreviousSummary) {
    const searchStart = pruned[0]?.role === 'system' ? 1 : 0;
    const found = findLatestSummary(pruned, searchStart, tailStart, preset);
    if (found) {
      if (!state.previousSummary) state = { ...state, previousSummary: found.body };
      summarizedStart = Math.max(headEnd, found.index + 1);
    } else if (state.previousSummary) {
      state = { ...state, previousSummary: null };
    }
  }
  const turns = pruned.slice(summarizedStart, tailStart);
  if (turns.length === 0) {
    state = strike();
    return unchanged('nothing-new-after-summary');
  }

  const focusTopic =
    options.focusTopic || (summarySwitches.autoFocus ? deriveAutoFocusTopic(pruned, preset) : null);
  const previousSummaryUsed = state.previousSummary;
  const generation = await generateSummary(
    {
      turns,
      preset,
      state,
      focusTopic,
      memoryContext: options.memoryContext ?? null,
      today: options.today ?? null,
      maxSummaryTokens: plan.thresholds.maxSummaryTokens,
      summaryModel: options.config.summaryModel || null,
      mainModel: options.mainModel ?? null,
      sizeCache,
      summaryTextCache: document.summaryTextCache,
      summaryOverride: options.summaryOverride ?? null,
    },
    deps,
  );
  state = generation.state;
  const lastRequest = generation.attempts[generation.attempts.length - 1]?.request;
  const summarizerCall: SummarizerCall | null = lastRequest
    ? { task: 'compression', maxTokens: lastRequest.maxTokens, model: lastRequest.model }
    : null;
  const summaryInfo = {
    summarizedRange: { start: summarizedStart, end: tailStart },
    previousSummaryUsed,
    focusTopic,
    prompt: generation.prompt,
    summarizerCall,
    summaryBudgetTokens: generation.budgetTokens,
    summaryError: generation.failure?.message ?? null,
    summarySkippedForCooldown: generation.skippedForCooldown,
    auxModelFailure: generation.auxModelFailure,
  };

  let summary = generation.summary;
  const abortsOnFailure =
    summarySwitches.failureHandling === 'classified' &&
    (options.config.abortOnSummaryFailure || state.lastSummaryAuthFailure || state.lastSummaryNetworkFailure);
  if (!summary && abortsOnFailure) {
    // Nothing is dropped: the rehydrated previous summary is rolled back too, so a retry
    // starts from the same state (#57835).
    state = { ...state, previousSummary: previousSummaryBefore };
    return unchanged('summary-failed-aborted', { ...summaryInfo, aborted: true });
  }
  let droppedCount = 0;
  let usedFallback = false;
  if (!summary) {
    if (summarySwitches.fallback === 'static-note')
      summary = legacyFallbackSummary(tailStart - headEnd, preset);
    else {
      droppedCount = tailStart - headEnd;
      usedFallback = true;
      summary = deterministicFallbackSummary(turns, state.lastSummaryError, preset);
    }
  }

  const summaryBody = generation.body ?? stripSummaryPrefix(summary, preset);
  const assembled = assembleCompressed({ messages: pruned, headEnd, tailStart, summary, preset });
  state = { ...state, compressionCount: state.compressionCount + 1 };
  const sanitized = sanitizeToolPairs(assembled.messages, preset);
  let output = sanitized.messages;
  let strippedMediaIndices: readonly number[] = [];
  if (assembly.stripsHistoricalMedia) {
    const media = stripHistoricalMedia(output);
    output = media.messages;
    strippedMediaIndices = media.strippedIndices;
  }
  // The terminal sweep: no copy may carry the marker, wherever it was made (#57491).
  if (assembly.stripsPersistenceMarker) output = stripPersistenceMarkers(output);
  const tokensAfter = estimateMessagesTokensRough(output, preset, sizeCache);
  if (realUsageVerdict) {
    // Diagnostic only: the next real prompt count judges the compaction.
    const prunedTokens = estimateMessagesTokensRough(pruned, preset, sizeCache);
    state = {
      ...state,
      lastCompressionSavingsPercent:
        prunedTokens > 0 ? ((prunedTokens - tokensAfter) / prunedTokens) * 100 : 0,
    };
  } else {
    // 2026-04 scored savings against the caller's count (system prompt and tools included).
    const displayTokens = options.currentTokens || state.lastPromptTokens || tokensBefore;
    const savingsPercent = displayTokens > 0 ? ((displayTokens - tokensAfter) / displayTokens) * 100 : 0;
    state = {
      ...state,
      lastCompressionSavingsPercent: savingsPercent,
      ineffectiveCount: savingsPercent < 10 ? state.ineffectiveCount + 1 : 0,
    };
  }
  return {
    ...summaryInfo,
    messages: output,
    state,
    skipped: null,
    raised: null,
    thresholds: plan.thresholds,
    pruned: plan.pruned,
    prunedCount: plan.prunedCount,
    boundaries: plan.boundaries,
    summary,
    summaryBody,
    summaryRole: assembled.summaryRole,
    mergedIntoTail: assembled.mergedIntoTail,
    usedFallback,
    aborted: false,
    droppedCount,
    repairedToolPairs: sanitized.repairs,
    strippedMediaIndices,
    tokensBefore,
    tokensAfter,
    compressionCount: state.compressionCount,
    warning: state.compressionCount >= 2 ? repeatedCompressionWarning(state.compressionCount) : null,
  };
}
