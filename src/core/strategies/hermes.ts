/**
 * Hermes Agent's own compressor (hermes-reference §3–§6) as a strategy, for either generation:
 * prune old tool output, keep a protected head and a token-budgeted tail, summarise the middle
 * into a structured handoff. The behaviour is all in `src/core/compression` and the preset's
 * switches; this file only answers the strategy questions with it.
 */
import { liveLoopHooks } from './live-loop-hooks.ts';
import { HERMES_2026_04_PROFILE, HERMES_2026_07_PROFILE } from './hermes-profile.ts';
import { summaryPlacement } from '../compression/assemble-compressed.ts';
import { compress } from '../compression/compress.ts';
import { shouldCompress } from '../compression/compression-gates.ts';
import { createHermesDocument, isDocumentFor, type HermesDocument } from '../compression/hermes-document.ts';
import { hygieneDecision } from '../compression/hygiene-decision.ts';
import { planCompressionBoundaries } from '../compression/plan-compression.ts';
import { minMessagesExclusive } from '../compression/protect-head-size.ts';
import type { PrunedToolOutput } from '../compression/prune-old-tool-results.ts';
import { computeSummaryBudget } from '../config/compute-summary-budget.ts';
import type { CompressionConfig } from '../config/compression-config.ts';
import { deriveThresholds, type DerivedThresholds } from '../config/derive-thresholds.ts';
import type { Preset } from '../presets/preset.ts';
import { formatCount } from '../shared/format-count.ts';
import type { SummaryTextCache } from '../compression/serialize-for-summary.ts';
import type { RoughSizeCache } from '../tokens/estimate-messages-tokens-rough.ts';
import type { Message } from '../transcript/message.ts';
import type { ToolSchema } from '../transcript/transcript.ts';
import { describeHermesHead, describeHermesHygiene, describeHermesPruning } from './describe-hermes-plan.ts';
import type { HermesPlanDetails } from './hermes-plan-details.ts';
import {
  FATE,
  type CompactInput,
  type PlanInput,
  type PlanReason,
  type Strategy,
  type StrategyCompaction,
  type StrategyPlan,
  type StrategyProfile,
  type StrategyTrigger,
} from './strategy.ts';

/** A pruning replacement can be a 50 KB argument JSON; the plan needs only its start. */
const REPLACEMENT_PREVIEW_CHARS = 400;

function hermesTrigger(config: CompressionConfig, preset: Preset): StrategyTrigger {
  const thresholds = deriveThresholds(config, preset);
  return { thresholdTokens: thresholds.thresholdTokens, rule: describeThresholdRule(thresholds) };
}

const percent = (fraction: number): string => `${Number((fraction * 100).toFixed(1))}%`;

/** How the threshold came from the window: the configured share, floors, reservations. */
export function describeThresholdRule(t: DerivedThresholds): string {
  const parts = [
    `${percent(t.effectiveThresholdPercent)} of the ${formatCount(t.contextLength)}-token window`,
  ];
  if (t.effectiveThresholdPercent !== t.configuredThresholdPercent) {
    parts.push(
      `(raised from the configured ${percent(t.configuredThresholdPercent)}: windows under 512K trigger no lower than 75%)`,
    );
  }
  if (t.reservedOutputTokens !== null)
    parts.push(`after reserving ${formatCount(t.reservedOutputTokens)} output tokens`);
  const plain = Math.trunc((t.contextLength - (t.reservedOutputTokens ?? 0)) * t.effectiveThresholdPercent);
  if (t.thresholdTokens !== plain) {
    parts.push(
      t.thresholdTokens === 64_000
        ? '— raised to the 64,000-token minimum'
        : '— the 64,000-token minimum would swallow the window, so it triggers at 85% of it',
    );
  }
  return parts.join(' ');
}

const previewReplacement = (item: PrunedToolOutput): PrunedToolOutput =>
  item.replacement.length <= REPLACEMENT_PREVIEW_CHARS
    ? item
    : { ...item, replacement: `${item.replacement.slice(0, REPLACEMENT_PREVIEW_CHARS)}…` };

function documentOf(
  input: {
    messages: readonly Message[];
    tools: readonly ToolSchema[];
    prepared?: unknown;
    sizeCache?: RoughSizeCache;
    summaryTextCache?: SummaryTextCache;
  },
  preset: Preset,
): HermesDocument {
  const prepared = input.prepared as HermesDocument | undefined;
  return isDocumentFor(prepared, input.messages, preset)
    ? prepared
    : createHermesDocument(input.messages, input.tools, preset, input.sizeCache, input.summaryTextCache);
}

function planHermes(input: PlanInput, preset: Preset): StrategyPlan {
  const { messages, config, state } = input;
  const document = documentOf(input, preset);
  const count = messages.length;
  const boundaries = planCompressionBoundaries(messages, {
    config,
    preset,
    state,
    document,
    systemPromptOutside: input.systemPromptOutside === true,
  });
  const thresholds = boundaries.thresholds;
  const trigger = { thresholdTokens: thresholds.thresholdTokens, rule: describeThresholdRule(thresholds) };
  // Hermes decides on its own rough request estimate (messages + tool schemas); in the live
  // chat, on the loop's count of the request it sends.
  const triggerTokens = input.loopRequestTokens ?? document.roughRequestTokens();
  const verdict = shouldCompress(
    state,
    { thresholdTokens: thresholds.thresholdTokens, preset, nowMs: input.nowMs ?? Number.POSITIVE_INFINITY },
    triggerTokens,
  );
  const cut = boundaries.boundaries;
  const headEnd = cut ? cut.headEnd : Math.min(boundaries.headSize, count);
  const tailStart = cut ? cut.tailStart : headEnd;
  let reason: PlanReason = 'ready';
  if (!config.enabled) reason = 'disabled';
  else if (!verdict.compress) reason = verdict.blockedBy ?? 'below-threshold';
  else if (boundaries.tooFewMessages) reason = 'too-few-messages';
  else if (boundaries.raised) reason = 'hermes-raised';
  else if (headEnd >= tailStart) reason = 'no-compressible-window';

  const fates = new Uint8Array(count);
  const summarizes = !boundaries.tooFewMessages && headEnd < tailStart;
  if (summarizes) fates.fill(FATE.summarized, headEnd, tailStart);
  // Savings are measured in rough tokens and reported in the caller's counting, by each
  // message's own ratio of the two.
  const prunedSavings = new Map<number, number>();
  const roughTokens = document.roughTokens();
  for (const item of boundaries.pruned) {
    if (fates[item.index] === FATE.kept) fates[item.index] = FATE.pruned;
    if (prunedSavings.has(item.index)) continue;
    const old = item.kind !== 'duplicate' && item.index < boundaries.pruneBoundary;
    const savedRough = document.savedRoughTokens(item.index, old);
    const rough = roughTokens[item.index]!;
    const counted = input.tokens.of(item.index);
    prunedSavings.set(item.index, rough > 0 ? Math.min(counted, (counted * savedRough) / rough) : 0);
  }
  const summaryTokens = summarizes
    ? computeSummaryBudget(
        boundaries.prunedMessages.slice(headEnd, tailStart),
        thresholds.maxSummaryTokens,
        preset,
        document.sizeCache,
      )
    : 0;
  const hermes: HermesPlanDetails = {
    thresholds,
    tailTokenBudget: boundaries.tailTokenBudget,
    headSize: boundaries.headSize,
    headRule: preset.boundaries.head,
    ...(input.systemPromptOutside === true && messages[0]?.role === 'system'
      ? { systemPromptOutside: true as const }
      : {}),
    tooFewMessages: boundaries.tooFewMessages,
    minMessagesExclusive: minMessagesExclusive(boundaries.headSize),
    pruneBoundary: boundaries.pruneBoundary,
    prunedCount: boundaries.prunedCount,
    tailCutSteps: cut?.steps ?? [],
    raised: boundaries.raised
      ? { type: 'HermesRaised', exception: boundaries.raised.exception, function: boundaries.raised.function }
      : null,
    hygiene: hygieneDecision(
      {
        historyLength: count,
        contextLength: config.contextLength,
        lastPromptTokens: state.lastPromptTokens,
        roughTokens: document.roughMessagesTokens(),
        compressionEnabled: config.enabled,
        hardMessageLimit: config.hygieneHardMessageLimit,
      },
      preset,
    ),
  };
  const pruned = boundaries.pruned.map(previewReplacement);
  let saved = 0;
  for (const value of prunedSavings.values()) saved += value;
  return {
    trigger,
    triggerTokens,
    triggerBasis: 'rough',
    wouldCompress: reason === 'ready',
    reason,
    headEnd,
    tailStart,
    fates,
    pruned,
    prunedSavings,
    summaries: summarizes
      ? [
          {
            start: headEnd,
            end: tailStart,
            kind: 'middle',
            ...(summaryPlacement(messages, headEnd, tailStart, preset).mergedIntoTail
              ? { mergedIntoTail: true as const }
              : {}),
          },
        ]
      : [],
    reattached: [],
    summaryTokens,
    explanation: [
      describeHermesHead(hermes, headEnd, messages[0]?.role === 'system', config, state),
      `Tail budget = threshold × target ratio ${percent(thresholds.targetRatio)} = ${formatCount(boundaries.tailTokenBudget)} tokens.`,
      describeHermesPruning(hermes, pruned, saved),
      describeHermesHygiene(hermes.hygiene),
    ],
    hermes,
  };
}

/**
 * Where compress() put its summary in its output: right after the head, standing alone or merged
 * into the first tail message — never a tool result. Assembly copies the head one for one, and
 * the tool-pair repair after it only removes or inserts tool results, so the summary is the
 * first message that is not a tool result after as many of those as the head holds. (Looking for
 * a summary message instead finds an earlier one in a resumed session's head.)
 */
function summaryOutputIndex(input: readonly Message[], headEnd: number, output: readonly Message[]): number {
  let before = 0;
  for (let index = 0; index < headEnd; index++) if (input[index]!.role !== 'tool') before++;
  for (let index = 0; index < output.length; index++) {
    if (output[index]!.role === 'tool') continue;
    if (before === 0) return index;
    before--;
  }
  return -1;
}

async function compactHermes(
  input: CompactInput,
  deps: Parameters<Strategy['compact']>[1],
  preset: Preset,
): Promise<StrategyCompaction> {
  const document = documentOf(input, preset);
  const result = await compress(
    input.messages,
    {
      config: input.config,
      preset,
      state: input.state,
      document,
      ...(input.focusTopic ? { focusTopic: input.focusTopic } : {}),
      ...(input.force ? { force: true } : {}),
      ...(input.memoryContext ? { memoryContext: input.memoryContext } : {}),
      ...(input.currentTokens !== undefined ? { currentTokens: input.currentTokens } : {}),
      ...(input.tailTokenBudgetOverride !== undefined
        ? { tailTokenBudgetOverride: input.tailTokenBudgetOverride }
        : {}),
      ...(input.summaryOverrides?.[0] !== undefined ? { summaryOverride: input.summaryOverrides[0] } : {}),
      today: input.today ?? null,
      mainModel: input.mainModel ?? null,
    },
    deps,
  );
  const count = input.messages.length;
  const fates = new Uint8Array(count);
  const range = result.skipped ? null : result.boundaries;
  if (range) fates.fill(FATE.summarized, range.headEnd, range.tailStart);
  for (let k = 0; k < result.pruned.length; k++) {
    const index = result.pruned[k]!.index;
    if (fates[index] === FATE.kept) fates[index] = FATE.pruned;
  }
  const summaryIndex =
    result.summary === null || !range
      ? -1
      : summaryOutputIndex(input.messages, range.headEnd, result.messages);
  const notes: string[] = [];
  if (result.skipped)
    notes.push(skipNote(result.skipped, result.summaryError ?? result.raised?.exception ?? null));
  else {
    notes.push(
      `Summarised messages #${formatCount(range!.headEnd)}–#${formatCount(range!.tailStart - 1)}; kept ${formatCount(range!.headEnd)} at the head and ${formatCount(count - range!.tailStart)} at the tail.`,
    );
    if (result.usedFallback)
      notes.push(
        `The summariser failed (${result.summaryError ?? 'no answer'}); the deterministic fallback summary stands in.`,
      );
  }
  return {
    messages: result.messages,
    state: result.state,
    skipped: result.skipped,
    notes,
    fates,
    pruned: result.pruned,
    summaries:
      result.summaryBody !== null && range
        ? [
            {
              body: result.summaryBody,
              outputIndex: summaryIndex,
              span: { start: range.headEnd, end: range.tailStart, kind: 'middle' },
              prompt: result.prompt,
              fallback: result.usedFallback,
            },
          ]
        : [],
    reattached: [],
    tokensBefore: result.tokensBefore,
    tokensAfter: result.tokensAfter,
    summarizerCalls: result.summarizerCall ? 1 : 0,
    warning: result.warning,
    hermes: result,
  };
}

function skipNote(reason: NonNullable<StrategyCompaction['skipped']>, error: string | null): string {
  switch (reason) {
    case 'too-few-messages':
      return 'Too few messages to compact: compress() returns the transcript unchanged.';
    case 'hermes-raised':
      return `This generation's Hermes raised while pruning old tool results (${error ?? 'an exception'}), so its compress() compacts nothing.`;
    case 'no-compressible-window':
      return 'The protected head and tail meet: nothing is left between them to summarise.';
    case 'nothing-new-after-summary':
      return 'Nothing new since the last summary: there is nothing to summarise.';
    case 'summary-failed-aborted':
      return `The summary failed (${error ?? 'no answer'}), so nothing was dropped.`;
    case 'would-grow':
      return 'The compacted context would be larger than the original, so nothing was changed.';
  }
}

/** The strategy of one Hermes generation: its profile and the preset's compress(). */
function hermesStrategy(profile: StrategyProfile): Strategy {
  const preset = profile.preset;
  return {
    ...profile,
    ...liveLoopHooks(preset),
    trigger: (config) => hermesTrigger(config, preset),
    prepare: (messages, tools, shared) =>
      createHermesDocument(
        messages,
        tools,
        preset,
        shared?.sizeCache(preset),
        shared?.summaryTextCache(preset),
      ),
    plan: (input) => planHermes(input, preset),
    compact: (input, deps) => compactHermes(input, deps, preset),
  };
}

export const HERMES_2026_04_STRATEGY: Strategy = /* @__PURE__ */ hermesStrategy(HERMES_2026_04_PROFILE);
export const HERMES_2026_07_STRATEGY: Strategy = /* @__PURE__ */ hermesStrategy(HERMES_2026_07_PROFILE);
