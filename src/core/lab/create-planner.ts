/**
 * The one planner: the lab's context map, the chat's map and the comparison all plan through
 * it. It holds one transcript and, per strategy, what that strategy prepared for it (sizes,
 * pruning candidates), so a settings change on 10,000 messages costs milliseconds. The worker
 * only hosts planners; `planOnce` is the thin form for a single plan.
 */
import { afterSegments } from './after-segments.ts';
import { INITIAL_COMPRESSOR_STATE, type CompressorState } from '../compression/compressor-state.ts';
import type { CompressionConfig } from '../config/compression-config.ts';
import { formatCount } from '../shared/format-count.ts';
import {
  FATE_NAMES,
  type FateName,
  type MessageTokens,
  type PlanReason,
  type PrepareContext,
  type Strategy,
} from '../strategies/strategy.ts';
import type { Preset } from '../presets/preset.ts';
import type { RoughSizeCache } from '../tokens/estimate-messages-tokens-rough.ts';
import type { RoughMessagesTotal } from '../tokens/estimate-request-tokens-rough.ts';
import { measureRoughTokens } from '../tokens/measure-rough-tokens.ts';
import type { Estimator, TokenEncoding } from '../tokens/estimator.ts';
import type { Message } from '../transcript/message.ts';
import type { ForeignCompactionPoint, ToolSchema } from '../transcript/transcript.ts';
import { categorizeContext } from './categorize-context.ts';
import { keepPinnedInPlan } from './keep-pinned-in-plan.ts';
import { createMessageCaches, type MessageCaches } from './message-caches.ts';
import { classifyContextMessages, type ContextMessageClass } from './classify-context-messages.ts';
import { COMPACTION_POINT_LABELS } from './compaction-point-labels.ts';
import { decideTurnCompaction, type TurnCompactionDecision } from '../loop/decide-turn-compaction.ts';
import type { AfterProjection, CompactionMarker, LabPlan, LiveLoopContext } from './lab-plan.ts';
import { buildMapRegions } from './map-regions.ts';
import { buildPrunedSpans, type PrunedSaving } from './pruned-spans.ts';
import { buildTokenAxis, offsetOfMessage, type TokenAxis } from './token-axis.ts';

export interface PlannerContext {
  readonly tools?: readonly ToolSchema[];
  readonly compactionPoints?: readonly ForeignCompactionPoint[];
  /**
   * What is derived from each message (`MessageCaches`), kept by the caller across planners of a
   * growing transcript and shared with its comparisons and simulations (keyed by message
   * identity), so a new turn measures one message.
   */
  readonly caches?: MessageCaches;
}

/** Exact counts of the transcript in one encoding, when they are complete. */
export interface ExactBasis {
  readonly encoding: TokenEncoding;
  readonly perMessage: readonly number[];
  readonly toolsTokens: number;
}

export interface PlanRequest {
  readonly config: CompressionConfig;
  /** The session's compressor state (a replayed result carries its compaction count). */
  readonly state?: CompressorState;
  readonly estimator: Estimator;
  /** Complete exact counts, when the estimator asks for them and they exist. */
  readonly exact?: ExactBasis | null;
  /** Clock for the failure cooldown; without it the cooldown is not judged. */
  readonly nowMs?: number;
  /** The worker document revision, echoed back so stale plans can be dropped. */
  readonly revision?: number;
  /** A clock for `elapsedMs` (the worker's `performance.now`); 0 elapsed without one. */
  readonly clock?: () => number;
  /**
   * Indices of pinned messages: the plan keeps them as the compaction will (verbatim, with
   * their tool group), and says which ones the strategy would have summarised, dropped or shortened.
   */
  readonly pinned?: readonly number[];
  /** Set for a chat session's request context: the trigger is judged as the live loop judges it. */
  readonly live?: LiveLoopContext | null;
}

export interface Planner {
  readonly messages: readonly Message[];
  readonly tools: readonly ToolSchema[];
  plan(strategy: Strategy, request: PlanRequest): LabPlan;
  /** What the strategy prepared for this transcript (built on first use), for `compact`. */
  prepared(strategy: Strategy): unknown;
  /** The transcript's rough counts under a preset's estimator (per message and the request). */
  rough(preset: Preset): RoughBasis;
}

interface Basis {
  readonly estimator: Estimator;
  readonly tokens: Int32Array;
  readonly axis: TokenAxis;
}

export interface RoughBasis extends Basis {
  /**
   * The axis of the live loop's pre-request count (messages and tool schemas each rounded on
   * their own); `axis` adds up to the preflight's request estimate, as the preset rounds it.
   */
  readonly loopAxis: TokenAxis;
  /** `estimate_messages_tokens_rough(messages)`: one rounding over all messages. */
  readonly messagesTokens: number;
  /** Messages + tool schemas, as the preset's request estimate rounds them. */
  readonly requestTokens: number;
  /** The messages' rough sizes summed, which a compaction of the same list starts from. */
  readonly sizes: RoughMessagesTotal;
}

/** The map's share of the window the hygiene line sits at (hermes-reference §4.5). */
const HYGIENE_RATIO = 0.85;

export function createPlanner(messages: readonly Message[], context: PlannerContext = {}): Planner {
  const tools = context.tools ?? [];
  const compactionPoints = context.compactionPoints ?? [];
  const systemEnd = messages[0]?.role === 'system' ? 1 : 0;
  const preparedByStrategy = new Map<Strategy, unknown>();
  const roughByPreset = new Map<Preset, RoughBasis>();
  const caches = context.caches ?? createMessageCaches();
  let exactCache: { source: readonly number[]; encoding: TokenEncoding; basis: Basis } | null = null;
  // What each message is for the category view: settings never change it, so it is classified once.
  let classes: readonly ContextMessageClass[] | null = null;

  const rough = (preset: Preset): RoughBasis => {
    const known = roughByPreset.get(preset);
    if (known) return known;
    const cache = caches.sizeCache(preset);
    // The same counts a compaction given none falls back on, so plan and compaction agree.
    const counts = measureRoughTokens(messages, tools, preset, cache);
    const basis: RoughBasis = {
      estimator: 'rough',
      tokens: counts.perMessage,
      // The tool schemas take what they add to the count the gauge shows, so the map's total is
      // that count: the preflight's request estimate here, the pre-request check's in a chat.
      axis: buildTokenAxis(counts.perMessage, systemEnd, counts.requestTokens - counts.messagesTokens),
      loopAxis: buildTokenAxis(counts.perMessage, systemEnd, counts.toolsTokens),
      messagesTokens: counts.messagesTokens,
      requestTokens: counts.requestTokens,
      sizes: counts.sizes,
    };
    roughByPreset.set(preset, basis);
    return basis;
  };

  const exactBasis = (exact: ExactBasis): Basis => {
    if (
      exactCache &&
      exactCache.encoding === exact.encoding &&
      exactCache.source === exact.perMessage &&
      exactCache.basis.axis.toolsTokens === exact.toolsTokens
    ) {
      return exactCache.basis;
    }
    const tokens = Int32Array.from(exact.perMessage);
    const basis: Basis = {
      estimator: exact.encoding,
      tokens,
      axis: buildTokenAxis(tokens, systemEnd, exact.toolsTokens),
    };
    exactCache = { source: exact.perMessage, encoding: exact.encoding, basis };
    return basis;
  };

  // What strategies prepare from: the transcript's caches, and this list's sizes as it is measured.
  const prepareContext: PrepareContext = {
    sizeCache: (preset) => caches.sizeCache(preset),
    summaryTextCache: (preset) => caches.summaryTextCache(preset),
    listSizes: (preset) => rough(preset).sizes,
  };
  const prepared = (strategy: Strategy): unknown => {
    if (!preparedByStrategy.has(strategy))
      preparedByStrategy.set(strategy, strategy.prepare(messages, tools, prepareContext));
    return preparedByStrategy.get(strategy);
  };

  const markers = (axis: TokenAxis): CompactionMarker[] =>
    compactionPoints
      .filter((point) => point.messageIndex >= 0 && point.messageIndex <= messages.length)
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
          label: `${COMPACTION_POINT_LABELS[point.kind]} before #${formatCount(point.messageIndex)}${details.length > 0 ? ` (${details.join(', ')})` : ''}`,
        };
      });

  return {
    messages,
    tools,
    prepared,
    rough,
    plan(strategy, request) {
      const started = request.clock?.() ?? 0;
      const roughBasis = rough(strategy.preset);
      const exact = request.exact ? exactBasis(request.exact) : null;
      // A chat session is drawn in the count its loop decides on, so its bar reaches the trigger
      // line when the chat compacts; exact counts are still given beside it.
      const basis = exact && !request.live ? exact : roughBasis;
      const axis = request.live ? roughBasis.loopAxis : basis.axis;
      const state = request.state ?? INITIAL_COMPRESSOR_STATE;
      const live = request.live
        ? liveDecision(messages, tools, strategy, request, {
            context: request.live,
            state,
            cache: caches.sizeCache(strategy.preset),
          })
        : null;
      // The live loop judges every strategy's trigger on Hermes' rough count of the request.
      const tokens: MessageTokens = {
        of: (index) => basis.tokens[index] ?? 0,
        request: live ? live.requestTokens : axis.totalTokens,
        exact: basis !== roughBasis,
      };
      const strategyPlan = strategy.plan({
        messages,
        tools,
        config: request.config,
        state,
        tokens,
        prepared: prepared(strategy),
        ...(request.nowMs !== undefined ? { nowMs: request.nowMs } : {}),
        ...(live ? { loopRequestTokens: live.requestTokens, systemPromptOutside: true } : {}),
      });
      const pinnedPlan = keepPinnedInPlan(strategyPlan, messages, request.pinned ?? []);
      const reason = live ? liveReason(strategyPlan.reason, live) : strategyPlan.reason;
      const plan = {
        ...strategyPlan,
        ...pinnedPlan,
        reason,
        wouldCompress: live ? reason === 'ready' : strategyPlan.wouldCompress,
        triggerBasis: live ? ('rough' as const) : strategyPlan.triggerBasis,
      };
      const windowTokens = request.config.contextLength;
      const savings: PrunedSaving[] = [...plan.prunedSavings]
        .sort((left, right) => left[0] - right[0])
        .map(([index, savedTokens]) => ({ index, savedTokens }));
      const prunedSavedTokens = savings.reduce((sum, saving) => sum + saving.savedTokens, 0);
      const fateTotals = totalsByFate(plan.fates, basis.tokens);
      const threshold = plan.trigger.thresholdTokens;
      const exactTotal = exact ? exact.axis.totalTokens : null;
      const roughTotal = live ? live.requestTokens : roughBasis.requestTokens;
      const countsDisagree = exactTotal !== null && roughTotal >= threshold !== exactTotal >= threshold;
      const summaryTokens = plan.summaries.length > 0 ? plan.summaryTokens : 0;
      const reattachedTokens = plan.reattached.reduce(
        (sum, file) => sum + (file.mode === 'content' ? file.tokens : 0),
        0,
      );
      // A summary Hermes merges into the first tail message adds no message, unless that message
      // is pinned: it is then kept whole and the summary stands before it (as the compaction does).
      const pins = new Set(request.pinned ?? []);
      const summaryMessages = plan.summaries.filter(
        (summary) => !(summary.mergedIntoTail === true && !pins.has(plan.tailStart)),
      ).length;
      const segments = afterSegments({
        axis,
        fates: plan.fates,
        headEnd: plan.headEnd,
        tailStart: plan.tailStart,
        prunedSavings: plan.prunedSavings,
        summaryTokens,
        summaryCount: summaryMessages,
        reattachedTokens,
        reattachedCount: plan.reattached.length,
      });
      const afterTokens = segments.reduce((sum, segment) => sum + segment.tokens, 0);
      const tailTokens =
        axis.prefix[messages.length]! - axis.prefix[Math.min(plan.tailStart, messages.length)]!;
      const after: AfterProjection = {
        tokens: afterTokens,
        messages:
          fateTotals.kept.messages + fateTotals.pruned.messages + summaryMessages + plan.reattached.length,
        summaryTokens,
        segments,
        warnings: [
          ...windowWarnings(windowTokens, threshold, tailTokens, afterTokens, plan.wouldCompress, live),
          ...growthWarnings(
            axis.totalTokens,
            afterTokens,
            summaryTokens,
            fateTotals.summarized.tokens + fateTotals.dropped.tokens,
          ),
        ],
      };
      return {
        strategy: strategy.name,
        strategyLabel: strategy.label,
        regionLabels: strategy.regionLabels,
        messageCount: messages.length,
        estimator: request.estimator,
        tokenBasis: basis.estimator,
        tokensPerMessage: basis.tokens,
        regions: buildMapRegions(axis, { headEnd: plan.headEnd, tailStart: plan.tailStart }),
        totalTokens: axis.totalTokens,
        systemTokens: axis.prefix[systemEnd]!,
        toolsTokens: axis.toolsTokens,
        toolCount: tools.length,
        windowTokens,
        hygieneTokens: Math.trunc(windowTokens * HYGIENE_RATIO),
        trigger: plan.trigger,
        triggerTokens: plan.triggerTokens,
        triggerBasis: plan.triggerBasis,
        counts: { rough: roughTotal, exact: exactTotal },
        countsDisagree,
        ...(live ? { live } : {}),
        wouldCompress: plan.wouldCompress,
        reason: plan.reason,
        headEnd: plan.headEnd,
        tailStart: plan.tailStart,
        fates: plan.fates,
        ...(request.pinned
          ? {
              pins: plan.pins.map((pin) => ({
                ...pin,
                offset: offsetOfMessage(axis, pin.index),
                tokens: basis.tokens[pin.index] ?? 0,
              })),
            }
          : {}),
        fateTotals,
        summaries: plan.summaries,
        reattached: plan.reattached,
        pruned: plan.pruned,
        // Merged at the transcript's own scale, the finest the map draws (zoomed to fit).
        prunedSpans: buildPrunedSpans(axis, savings, Math.max(1, axis.totalTokens)),
        prunedSavedTokens: Math.round(prunedSavedTokens),
        after,
        explanation: plan.explanation,
        hermes: plan.hermes,
        compactionMarkers: markers(axis),
        categories: categorizeContext({
          classes: (classes ??= classifyContextMessages(messages, compactionPoints)),
          tokensPerMessage: basis.tokens,
          toolsTokens: axis.toolsTokens,
          windowTokens,
          // Hermes' rough estimate measures the whole message dict, reasoning included; the exact
          // counts read only what the tokenizer is sent (`messageCountingText`), which leaves it out.
          thinkingCounted: basis.estimator === 'rough',
        }),
        elapsedMs: (request.clock?.() ?? 0) - started,
        revision: request.revision ?? 0,
      };
    },
  };
}

/** One plan of a transcript with no planner kept around (the CLI, tests). */
export const planOnce = (
  strategy: Strategy,
  messages: readonly Message[],
  request: PlanRequest,
  context: PlannerContext = {},
): LabPlan => createPlanner(messages, context).plan(strategy, request);

function totalsByFate(
  fates: Uint8Array,
  tokens: Int32Array,
): Record<FateName, { messages: number; tokens: number }> {
  const totals = Object.fromEntries(FATE_NAMES.map((name) => [name, { messages: 0, tokens: 0 }])) as Record<
    FateName,
    { messages: number; tokens: number }
  >;
  for (let index = 0; index < fates.length; index++) {
    const bucket = totals[FATE_NAMES[fates[index]!]!];
    bucket.messages += 1;
    bucket.tokens += tokens[index] ?? 0;
  }
  return totals;
}

/**
 * The live loop's decision for a chat session's request context: its messages are the system
 * prompt (first, when there is one) and the stored conversation (`requestMessages`).
 */
function liveDecision(
  messages: readonly Message[],
  tools: readonly ToolSchema[],
  strategy: Strategy,
  request: PlanRequest,
  live: { context: LiveLoopContext; state: CompressorState; cache: RoughSizeCache },
): TurnCompactionDecision {
  const first = messages[0];
  const hasSystem = first?.role === 'system' && typeof first.content === 'string';
  return decideTurnCompaction(
    {
      messages: hasSystem ? messages.slice(1) : messages,
      systemPrompt: hasSystem ? (first.content as string) : '',
      tools,
      config: request.config,
      thresholdTokens: strategy.trigger(request.config).thresholdTokens,
      state: live.state,
      lastSessionPromptTokens: live.context.lastSessionPromptTokens,
      nowMs: request.nowMs ?? Number.POSITIVE_INFINITY,
      cache: live.cache,
    },
    strategy.preset,
  );
}

/**
 * The plan's reason under the live loop: the loop's checks decide whether it compacts; the
 * strategy's own reasons still say when a compaction would change nothing.
 */
function liveReason(reason: PlanReason, live: TurnCompactionDecision): PlanReason {
  switch (reason) {
    case 'too-few-messages':
    case 'hermes-raised':
    case 'no-compressible-window':
    case 'disabled':
      return reason;
    default:
      if (live.firedBy !== null) return 'ready';
      if (live.deferred) return 'deferred';
      // Over the trigger but the loop holds back: a conversation of one message is never compacted.
      return reason === 'ready' ? 'too-few-messages' : reason;
  }
}

/**
 * A projection larger than the transcript: every compaction refuses a result that does not shrink
 * the context (`judgeCompactionGrowth`), so this one would be skipped unless its summary comes out
 * shorter than the budget drawn for it (a short transcript, where the summary's budget outweighs
 * the few messages it stands for).
 */
function growthWarnings(
  beforeTokens: number,
  afterTokens: number,
  summaryTokens: number,
  replacedTokens: number,
): string[] {
  if (afterTokens < beforeTokens || summaryTokens === 0) return [];
  return [
    `Compacted now, the context would grow from ${formatCount(beforeTokens)} to about ${formatCount(afterTokens)} tokens: ` +
      `the summary's budget of ${formatCount(summaryTokens)} tokens outweighs the ${formatCount(replacedTokens)} it replaces. ` +
      'A compaction that does not shrink the context is refused, so this one would be skipped unless its summary comes out shorter.',
  ];
}

function windowWarnings(
  windowTokens: number,
  thresholdTokens: number,
  tailTokens: number,
  afterTokens: number,
  fires: boolean,
  live: TurnCompactionDecision | null,
): string[] {
  const warnings: string[] = [];
  if (tailTokens > windowTokens)
    warnings.push(
      `The kept tail alone (${formatCount(tailTokens)} tokens) is larger than the whole window of ${formatCount(windowTokens)} tokens.`,
    );
  if (thresholdTokens > windowTokens)
    warnings.push(
      `The trigger (${formatCount(thresholdTokens)} tokens) is above the ${formatCount(windowTokens)}-token window: ` +
        (live
          ? `in the chat, session hygiene compacts at 85% of the window (${formatCount(Math.trunc(windowTokens * HYGIENE_RATIO))} tokens) before the provider would reject the request.`
          : 'the provider would reject the request before compaction fires.'),
    );
  if (fires && afterTokens > windowTokens)
    warnings.push(
      `After compaction the context (about ${formatCount(afterTokens)} tokens) would still not fit in the window of ${formatCount(windowTokens)} tokens.`,
    );
  return warnings;
}
