/**
 * Phases 1–2 without the summariser: pruning, boundaries, and whether a compaction would fire
 * now and why not. Synchronous and linear, so the live context map can call it on every
 * settings change; `compress()` runs the same plan before summarising.
 */
import type { CompressionConfig } from '../config/compression-config.ts';
import { type DerivedThresholds, deriveThresholds } from '../config/derive-thresholds.ts';
import type { Preset } from '../presets/preset.ts';
import type { Message } from '../transcript/message.ts';
import { type CompressionBlock, shouldCompress } from './compression-gates.ts';
import type { CompressorState } from './compressor-state.ts';
import type { TailCutStep } from './find-tail-cut.ts';
import { planBoundaries } from './plan-boundaries.ts';
import { isTooFewToCompress, protectHeadSize } from './protect-head-size.ts';
import { createHermesDocument, isDocumentFor, type HermesDocument } from './hermes-document.ts';
import { findPruneBoundary, type PrunedToolOutput, type PruneResult } from './prune-old-tool-results.ts';

export interface PlanOptions {
  readonly config: CompressionConfig;
  readonly preset: Preset;
  readonly state: CompressorState;
  /** The caller's token count; the rough message estimate is used when absent. */
  readonly currentTokens?: number;
  readonly tailTokenBudgetOverride?: number;
  /** The transcript's settings-independent measurements, kept across calls by the planner. */
  readonly document?: HermesDocument;
  /** The messages are a chat request whose system prompt the loop keeps outside (`HeadOptions`). */
  readonly systemPromptOutside?: boolean;
}

export interface PrunedBoundaryPlan {
  readonly thresholds: DerivedThresholds;
  /** The tail budget in force (the override when given). */
  readonly tailTokenBudget: number;
  readonly headSize: number;
  /** `len(messages) <= head + 3 + 1`: compress() returns the input unchanged. */
  readonly tooFewMessages: boolean;
  /** The list after Phase 1 (same length and positions as the input). */
  readonly prunedMessages: Message[];
  readonly pruned: readonly PrunedToolOutput[];
  readonly prunedCount: number;
  readonly pruneBoundary: number;
  /** Where 2026-04 Hermes' pruning would raise, so compress() compacts nothing; null otherwise. */
  readonly raised: PruneResult['raised'];
  /** `messages[:headEnd]` head, `[headEnd:tailStart]` middle, `[tailStart:]` tail; null when too few. */
  readonly boundaries: {
    readonly headEnd: number;
    readonly tailStart: number;
    readonly steps: readonly TailCutStep[];
  } | null;
  /** Rough estimate of the input messages under the preset's estimator. */
  readonly tokensBefore: number;
}

export type PlanReason =
  | 'ready'
  | 'below-threshold'
  | 'too-few-messages'
  | 'hermes-raised'
  | 'no-compressible-window'
  | CompressionBlock;

export interface CompressionPlan extends PrunedBoundaryPlan {
  /** The count the trigger was judged on, and where it came from. */
  readonly tokens: number;
  readonly tokenSource: 'current' | 'rough';
  readonly wouldCompress: boolean;
  readonly reason: PlanReason;
}

function documentFor(messages: readonly Message[], options: PlanOptions): HermesDocument {
  return isDocumentFor(options.document, messages, options.preset)
    ? options.document
    : createHermesDocument(messages, [], options.preset);
}

/**
 * Phases 1–2 on a transcript's document (created for the call when none is given). The one
 * implementation of Hermes' planning: the lab's map, `planCompression` and `compress()` all
 * come through here.
 */
export function planCompressionBoundaries(
  messages: readonly Message[],
  options: PlanOptions,
): PrunedBoundaryPlan {
  const { preset, config, state } = options;
  const document = documentFor(messages, options);
  const thresholds = deriveThresholds(config, preset);
  const tailTokenBudget = options.tailTokenBudgetOverride ?? thresholds.tailTokenBudget;
  const headOptions = {
    protectFirstN: config.protectFirstN,
    compressionCount: state.compressionCount,
    hasPreviousSummary: !!state.previousSummary,
    systemPromptOutside: options.systemPromptOutside === true,
  };
  const headSize = protectHeadSize(messages, headOptions, preset);
  const tokensBefore = document.roughMessagesTokens();
  const base = { thresholds, tailTokenBudget, headSize, tokensBefore };
  if (isTooFewToCompress(messages.length, headSize)) {
    return {
      ...base,
      tooFewMessages: true,
      prunedMessages: [...messages],
      pruned: [],
      prunedCount: 0,
      pruneBoundary: 0,
      raised: null,
      boundaries: null,
    };
  }
  const pruneBoundary = findPruneBoundary(
    messages,
    { protectTailCount: config.protectLastN, protectTailTokens: tailTokenBudget },
    preset,
  );
  const pruning = document.pruning().at(pruneBoundary);
  const boundaries = planBoundaries(
    pruning.messages,
    { ...headOptions, protectLastN: config.protectLastN, tailTokenBudget },
    preset,
  );
  return {
    ...base,
    tooFewMessages: false,
    prunedMessages: pruning.messages,
    pruned: pruning.pruned,
    prunedCount: pruning.prunedCount,
    pruneBoundary: pruning.pruneBoundary,
    raised: pruning.raised,
    boundaries: {
      headEnd: boundaries.headEnd,
      tailStart: boundaries.tailStart,
      steps: boundaries.tailCut.steps,
    },
  };
}

/**
 * Whether compaction would fire on `messages` now, with the plan that explains it. The
 * trigger uses `currentTokens` when given (a provider count), else the rough estimate; the
 * gates read the clock only for the failure cooldown.
 */
export function planCompression(
  messages: readonly Message[],
  options: PlanOptions & {
    /** Clock in ms for the failure cooldown; without one the cooldown is not judged. */
    readonly nowMs?: number;
  },
): CompressionPlan {
  const plan = planCompressionBoundaries(messages, options);
  const tokenSource = options.currentTokens !== undefined ? 'current' : 'rough';
  const tokens = options.currentTokens ?? plan.tokensBefore;
  const verdict = shouldCompress(
    options.state,
    {
      thresholdTokens: plan.thresholds.thresholdTokens,
      preset: options.preset,
      nowMs: options.nowMs ?? Number.POSITIVE_INFINITY,
    },
    tokens,
  );
  let reason: PlanReason = 'ready';
  if (!verdict.compress) reason = verdict.blockedBy ?? 'below-threshold';
  else if (plan.tooFewMessages) reason = 'too-few-messages';
  else if (plan.raised) reason = 'hermes-raised';
  else if (plan.boundaries && plan.boundaries.headEnd >= plan.boundaries.tailStart)
    reason = 'no-compressible-window';
  return { ...plan, tokens, tokenSource, wouldCompress: reason === 'ready', reason };
}
