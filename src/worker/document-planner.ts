/**
 * The compression plan of one open document, cached so that a settings change on 10,000
 * messages costs milliseconds rather than the ~300 ms of a fresh `planCompression`.
 *
 * What is expensive in a plan does not depend on the settings: each message's rough size
 * (the Python-repr length of up to 100 KB of text) and what pruning would make of each old tool
 * output. So per preset this computes, once, the transcript pruned as if every message were
 * old (`fullyPruned`) and as if none were (`dedupeOnly`: duplicates are replaced anywhere).
 * Pruning is positional: for a prune boundary B the real result is `fullyPruned[i]` below B
 * and `dedupeOnly[i]` from B on, and its replacement list is every duplicate plus the others
 * below B. Only the boundary walks and the tail search run per request, and they stop early.
 * tests/worker/document-planner.test.ts checks the result against core's planCompression.
 */
import { shouldCompress } from '../core/compression/compression-gates.ts';
import { INITIAL_COMPRESSOR_STATE, type CompressorState } from '../core/compression/compressor-state.ts';
import { hygieneDecision } from '../core/compression/hygiene-decision.ts';
import type { PlanReason } from '../core/compression/plan-compression.ts';
import { planBoundaries } from '../core/compression/plan-boundaries.ts';
import {
  isTooFewToCompress,
  minMessagesExclusive,
  protectHeadSize,
} from '../core/compression/protect-head-size.ts';
import {
  findPruneBoundary,
  pruneOldToolResults,
  type PrunedToolOutput,
  type PruneResult,
} from '../core/compression/prune-old-tool-results.ts';
import type { CompressionConfig } from '../core/config/compression-config.ts';
import { deriveThresholds } from '../core/config/derive-thresholds.ts';
import type { CompactionMarker, LabPlan } from '../core/lab/lab-plan.ts';
import { buildMapRegions } from '../core/lab/map-regions.ts';
import { buildPrunedSpans, type PrunedSaving } from '../core/lab/pruned-spans.ts';
import { buildTokenAxis, offsetOfMessage, type TokenAxis } from '../core/lab/token-axis.ts';
import { getPreset } from '../core/presets/preset.ts';
import type { PresetName } from '../core/presets/preset-name.ts';
import { formatCount } from '../core/shared/format-count.ts';
import {
  estimateMessagesTokensRough,
  type RoughSizeCache,
} from '../core/tokens/estimate-messages-tokens-rough.ts';
import { estimateRequestTokensRough } from '../core/tokens/estimate-request-tokens-rough.ts';
import { estimateToolsTokensRough } from '../core/tokens/estimate-tools-tokens-rough.ts';
import type { Estimator, TokenEncoding } from '../core/tokens/estimator.ts';
import type { Message } from '../core/transcript/message.ts';
import type { ForeignCompactionPoint, ToolSchema } from '../core/transcript/transcript.ts';

export interface DocumentContext {
  readonly tools?: readonly ToolSchema[];
  readonly compactionPoints?: readonly ForeignCompactionPoint[];
}

export interface LabPlanOptions {
  readonly preset: PresetName;
  readonly config: CompressionConfig;
  /** The session's compressor state (a replayed result carries its compaction count). */
  readonly state?: CompressorState;
  readonly estimator: Estimator;
  /** Clock for the failure cooldown; the worker's own when absent. */
  readonly nowMs?: number;
}

/** Exact counts of the document in one encoding, when they are complete. */
export interface ExactBasis {
  readonly encoding: TokenEncoding;
  readonly perMessage: readonly number[];
  readonly toolsTokens: number;
}

/** Argument JSON can be long even after shrinking; the list needs only its start. */
const REPLACEMENT_PREVIEW_CHARS = 400;

interface Basis {
  readonly estimator: Estimator;
  readonly tokens: Int32Array;
  readonly axis: TokenAxis;
}

interface PresetCache {
  readonly sizeCache: RoughSizeCache;
  readonly rough: Basis;
  readonly roughMessagesTokens: number;
  readonly roughRequestTokens: number;
  readonly dedupeOnly: readonly Message[];
  readonly fullyPruned: readonly Message[];
  /** Every replacement pruning could make, sorted by index (duplicates anywhere, the rest if old). */
  readonly prunedAll: readonly PrunedToolOutput[];
  /**
   * The first old tool result 2026-04's one-liner raises on. Pruning walks in index order, so
   * a plan raises exactly when this index is below its prune boundary.
   */
  readonly raisedAll: PruneResult['raised'];
  /** Rough tokens each replacement saves, by message index. */
  readonly savedRoughFull: ReadonlyMap<number, number>;
  readonly savedRoughDedupe: ReadonlyMap<number, number>;
}

const COMPACTION_LABELS: Record<ForeignCompactionPoint['kind'], string> = {
  'claude-compact-boundary': 'Claude Code compact boundary',
  'claude-compact-summary': 'Claude Code compact summary',
  'codex-compacted': 'Codex compaction',
  'codex-context-compacted': 'Codex context compacted',
  'hermes-summary': 'Hermes summary',
  'anthropic-compaction': 'Anthropic server-side compaction',
};

export class DocumentPlanner {
  readonly #messages: readonly Message[];
  readonly #tools: readonly ToolSchema[];
  readonly #compactionPoints: readonly ForeignCompactionPoint[];
  readonly #systemEnd: number;
  readonly #byPreset = new Map<PresetName, PresetCache>();
  #exact: { source: readonly number[]; encoding: TokenEncoding; basis: Basis } | null = null;

  constructor(messages: readonly Message[], context: DocumentContext = {}) {
    this.#messages = messages;
    this.#tools = context.tools ?? [];
    this.#compactionPoints = context.compactionPoints ?? [];
    this.#systemEnd = messages[0]?.role === 'system' ? 1 : 0;
  }

  get tools(): readonly ToolSchema[] {
    return this.#tools;
  }

  /** Builds the per-preset cache ahead of the first request for it (e.g. while the user reads). */
  warm(preset: PresetName): void {
    this.#presetCache(preset);
  }

  plan(options: LabPlanOptions, exact: ExactBasis | null, revision: number): LabPlan {
    const started = performance.now();
    const { config } = options;
    const preset = getPreset(options.preset);
    const messages = this.#messages;
    const count = messages.length;
    const cache = this.#presetCache(options.preset);
    const state = options.state ?? INITIAL_COMPRESSOR_STATE;
    const thresholds = deriveThresholds(config, preset);
    const tailTokenBudget = thresholds.tailTokenBudget;
    const headOptions = {
      protectFirstN: config.protectFirstN,
      compressionCount: state.compressionCount,
      hasPreviousSummary: !!state.previousSummary,
    };
    const headSize = protectHeadSize(messages, headOptions, preset);
    const tooFewMessages = isTooFewToCompress(count, headSize);

    let pruneBoundary = 0;
    let raised: PruneResult['raised'] = null;
    let pruned: PrunedToolOutput[] = [];
    let headEnd = Math.min(headSize, count);
    let tailStart = headEnd;
    let tailCutSteps: LabPlan['tailCutSteps'] = [];
    if (!tooFewMessages) {
      pruneBoundary = Math.max(
        0,
        Math.min(
          count,
          findPruneBoundary(
            messages,
            { protectTailCount: config.protectLastN, protectTailTokens: tailTokenBudget },
            preset,
          ),
        ),
      );
      pruned = cache.prunedAll.filter((item) => item.kind === 'duplicate' || item.index < pruneBoundary);
      if (cache.raisedAll && cache.raisedAll.index < pruneBoundary) raised = cache.raisedAll;
      const prunedMessages = new Array<Message>(count);
      for (let index = 0; index < count; index++) {
        prunedMessages[index] = index < pruneBoundary ? cache.fullyPruned[index]! : cache.dedupeOnly[index]!;
      }
      const boundaries = planBoundaries(
        prunedMessages,
        { ...headOptions, protectLastN: config.protectLastN, tailTokenBudget },
        preset,
      );
      headEnd = boundaries.headEnd;
      tailStart = boundaries.tailStart;
      tailCutSteps = boundaries.tailCut.steps;
    }
    const prunedCount = pruned.reduce((sum, item) => sum + (item.kind === 'arguments' ? 0 : 1), 0);

    const basis = exact ? this.#exactBasis(exact) : cache.rough;
    const toolsTokens = exact ? exact.toolsTokens : cache.rough.axis.toolsTokens;
    const triggerTokens = exact ? basis.axis.totalTokens : cache.roughRequestTokens;
    const verdict = shouldCompress(
      state,
      { thresholdTokens: thresholds.thresholdTokens, preset, nowMs: options.nowMs ?? Date.now() },
      triggerTokens,
    );
    let reason: PlanReason = 'ready';
    if (!verdict.compress) reason = verdict.blockedBy ?? 'below-threshold';
    else if (tooFewMessages) reason = 'too-few-messages';
    else if (raised) reason = 'hermes-raised';
    else if (headEnd >= tailStart) reason = 'no-compressible-window';

    const axisLength = Math.max(config.contextLength, basis.axis.totalTokens);
    const savings = this.#savings(pruned, pruneBoundary, cache, basis);
    const hygiene = hygieneDecision(
      {
        historyLength: count,
        contextLength: config.contextLength,
        lastPromptTokens: state.lastPromptTokens,
        roughTokens: exact ? basis.axis.totalTokens - toolsTokens : cache.roughMessagesTokens,
        compressionEnabled: config.enabled,
        hardMessageLimit: config.hygieneHardMessageLimit,
      },
      preset,
    );
    return {
      preset: options.preset,
      headRule: preset.boundaries.head,
      messageCount: count,
      estimator: options.estimator,
      tokenBasis: basis.estimator,
      tokensPerMessage: basis.tokens,
      regions: buildMapRegions(basis.axis, { headEnd, tailStart }),
      totalTokens: basis.axis.totalTokens,
      systemTokens: basis.axis.prefix[this.#systemEnd]!,
      toolsTokens,
      toolCount: this.#tools.length,
      thresholds,
      tailTokenBudget,
      windowTokens: config.contextLength,
      hygieneTokens: Math.trunc(config.contextLength * 0.85),
      hygiene,
      triggerTokens,
      wouldCompress: reason === 'ready',
      reason,
      headSize,
      tooFewMessages,
      minMessagesExclusive: minMessagesExclusive(headSize),
      pruneBoundary,
      raised: raised && { type: raised.type, exception: raised.exception, function: raised.function },
      prunedCount,
      pruned: pruned.map(previewReplacement),
      prunedSpans: buildPrunedSpans(basis.axis, savings.list, axisLength),
      prunedSavedTokens: Math.round(savings.total),
      headEnd,
      tailStart,
      tailCutSteps,
      compactionMarkers: this.#compactionMarkers(basis.axis),
      elapsedMs: performance.now() - started,
      revision,
    };
  }

  #presetCache(presetName: PresetName): PresetCache {
    const known = this.#byPreset.get(presetName);
    if (known) return known;
    const preset = getPreset(presetName);
    const messages = this.#messages;
    const sizeCache: RoughSizeCache = new WeakMap();
    const roughTokens = new Int32Array(messages.length);
    for (let index = 0; index < messages.length; index++) {
      roughTokens[index] = estimateMessagesTokensRough([messages[index]!], preset, sizeCache);
    }
    const toolsRough = estimateToolsTokensRough(this.#tools, preset);
    const dedupe = pruneOldToolResults(
      messages,
      { protectTailCount: messages.length, protectTailTokens: null },
      preset,
    );
    const full = pruneOldToolResults(messages, { protectTailCount: 0, protectTailTokens: null }, preset);
    const savedFull = new Map<number, number>();
    const savedDedupe = new Map<number, number>();
    for (const item of full.pruned) {
      if (savedFull.has(item.index)) continue;
      const after = estimateMessagesTokensRough([full.messages[item.index]!], preset);
      savedFull.set(item.index, Math.max(0, roughTokens[item.index]! - after));
    }
    for (const item of dedupe.pruned) {
      const after = estimateMessagesTokensRough([dedupe.messages[item.index]!], preset);
      savedDedupe.set(item.index, Math.max(0, roughTokens[item.index]! - after));
    }
    const cache: PresetCache = {
      sizeCache,
      rough: {
        estimator: 'rough',
        tokens: roughTokens,
        axis: buildTokenAxis(roughTokens, this.#systemEnd, toolsRough),
      },
      roughMessagesTokens: estimateMessagesTokensRough(messages, preset, sizeCache),
      roughRequestTokens: estimateRequestTokensRough(messages, '', this.#tools, preset, sizeCache),
      dedupeOnly: dedupe.messages,
      fullyPruned: full.messages,
      prunedAll: full.pruned,
      raisedAll: full.raised,
      savedRoughFull: savedFull,
      savedRoughDedupe: savedDedupe,
    };
    this.#byPreset.set(presetName, cache);
    return cache;
  }

  #exactBasis(exact: ExactBasis): Basis {
    const known = this.#exact;
    if (
      known &&
      known.encoding === exact.encoding &&
      known.source === exact.perMessage &&
      known.basis.axis.toolsTokens === exact.toolsTokens
    ) {
      return known.basis;
    }
    const tokens = Int32Array.from(exact.perMessage);
    const basis: Basis = {
      estimator: exact.encoding,
      tokens,
      axis: buildTokenAxis(tokens, this.#systemEnd, exact.toolsTokens),
    };
    this.#exact = { source: exact.perMessage, encoding: exact.encoding, basis };
    return basis;
  }

  /** What each replacement saves, converted from rough tokens into the basis by the message's own ratio. */
  #savings(
    pruned: readonly PrunedToolOutput[],
    pruneBoundary: number,
    cache: PresetCache,
    basis: Basis,
  ): { list: PrunedSaving[]; total: number } {
    const list: PrunedSaving[] = [];
    let total = 0;
    let previous = -1;
    for (const item of pruned) {
      if (item.index === previous) continue;
      previous = item.index;
      const savedRough =
        (item.index < pruneBoundary ? cache.savedRoughFull : cache.savedRoughDedupe).get(item.index) ?? 0;
      const rough = cache.rough.tokens[item.index]!;
      const messageTokens = basis.tokens[item.index]!;
      const savedTokens = rough > 0 ? Math.min(messageTokens, (messageTokens * savedRough) / rough) : 0;
      list.push({ index: item.index, savedTokens });
      total += savedTokens;
    }
    return { list, total };
  }

  #compactionMarkers(axis: TokenAxis): CompactionMarker[] {
    return this.#compactionPoints
      .filter((point) => point.messageIndex >= 0 && point.messageIndex <= this.#messages.length)
      .map((point) => {
        const details = [
          point.trigger,
          point.preTokens !== undefined ? `${formatCount(point.preTokens)} tokens before` : '',
          point.line !== undefined ? `line ${point.line}` : '',
        ].filter(Boolean);
        return {
          messageIndex: point.messageIndex,
          kind: point.kind,
          offset: offsetOfMessage(axis, point.messageIndex),
          label: `${COMPACTION_LABELS[point.kind]} before #${formatCount(point.messageIndex)}${details.length > 0 ? ` (${details.join(', ')})` : ''}`,
        };
      });
  }
}

function previewReplacement(item: PrunedToolOutput): PrunedToolOutput {
  if (item.replacement.length <= REPLACEMENT_PREVIEW_CHARS) return item;
  return { ...item, replacement: `${item.replacement.slice(0, REPLACEMENT_PREVIEW_CHARS)}…` };
}
