import { estimateTokensRough } from '../core/tokens/estimate-tokens-rough.ts';
import { estimateMessageTokensRough } from '../core/tokens/estimate-messages-tokens-rough.ts';
import { routeForModel } from '../core/lab/route-for-model.ts';
import {
  assessCompaction,
  type AssessCompactionInput,
  type AssessmentRoute,
  type CompactionAssessment,
} from '../core/lab/assess-compaction.ts';
import { INITIAL_COMPRESSOR_STATE, type CompressorState } from '../core/compression/compressor-state.ts';
import { createOfflineSummarizer } from '../core/compression/offline-summarizer.ts';
import type { Summarizer, SummaryRequest } from '../core/compression/summarizer.ts';
import type { CompressionConfig } from '../core/config/compression-config.ts';
import { locatePinnedMessages } from '../core/fidelity/locate-pinned-messages.ts';
import { diffCompression } from '../core/lab/compression-diff.ts';
import type { LabCompression } from '../core/lab/lab-compression.ts';
import { err, ok, type Result } from '../core/shared/result.ts';
import {
  compactConversation,
  type CompactionReason,
  type ConversationCompaction,
} from '../core/strategies/compact-conversation.ts';
import type { MessageTokens, Strategy } from '../core/strategies/strategy.ts';
import type { StrategyName } from '../core/strategies/strategy-names.ts';
import type { Message } from '../core/transcript/message.ts';
import type { ToolSchema } from '../core/transcript/transcript.ts';
import type { CanonicalUsage } from '../core/usage/canonical-usage.ts';

type AssessmentCaches = NonNullable<AssessCompactionInput['caches']>;

/** One compaction request as the page sends it (the strategy by name: this is an edge). */
export interface LabCompressOptions {
  readonly strategy: StrategyName;
  readonly config: CompressionConfig;
  readonly state?: CompressorState;
  readonly focusTopic?: string;
  /** `YYYY-MM-DD` for prompts that anchor the summary in time; the page knows the user's date. */
  readonly today?: string | null;
  readonly mainModel?: string | null;
  /** The request estimate the trigger used (2026-04 scores savings against it). */
  readonly currentTokens?: number;
  /** Reviewed summary bodies: commit them instead of calling a summariser. */
  readonly summaryOverrides?: readonly string[];
  /**
   * With `summaryOverrides`: the usage of the summariser call that wrote the bodies being
   * committed (a review edits a summary; it does not make the call free), for the ledger.
   */
  readonly summaryUsage?: CanonicalUsage | null;
  /** Whether `summaryUsage` is what the provider billed (a live chat) or counted from texts. */
  readonly summaryMeasured?: boolean;
  /** Input indices that must survive verbatim. */
  readonly pinned?: readonly number[];
  readonly reason?: CompactionReason;
  readonly systemPrompt?: string;
  /** Manual compaction (the default here): clears the failure cooldown first. */
  readonly force?: boolean;
  readonly tailTokenBudgetOverride?: number;
  /** Where the conversation runs, for the ledger's prices and cache; from `mainModel` when absent. */
  readonly route?: AssessmentRoute;
}

/** A summariser on the page (it owns provider keys and network calls), reached through comlink. */
export interface RemoteSummarizer {
  readonly label: string;
  readonly summarize: (request: SummaryRequest) => Promise<string>;
}

export const summarizerFor = (remote: RemoteSummarizer | null): Summarizer =>
  remote
    ? { label: remote.label, offline: false, summarize: (request) => remote.summarize(request) }
    : createOfflineSummarizer();

export interface LabCompactionSource {
  readonly messages: readonly Message[];
  readonly tools: readonly ToolSchema[];
  /** What the planner prepared for this strategy, so nothing is measured twice. */
  readonly prepared?: unknown;
  readonly tokens?: MessageTokens;
  /**
   * What the document's comparisons and earlier replays read in its messages (facts, visible
   * texts), so the assessment reads each message once.
   */
  readonly caches?: AssessmentCaches;
}

/**
 * Runs the one compaction operation on the worker's copy of a transcript, as a manual
 * `/compress` (force: the failure cooldown is cleared), with the offline summariser or the
 * page's. Returns the outcome with its before/after diff; an unexpected failure comes back as
 * data, not a throw.
 */
export async function runLabCompaction(
  source: LabCompactionSource,
  strategy: Strategy,
  options: LabCompressOptions,
  remote: RemoteSummarizer | null,
  clock: () => number,
): Promise<Result<LabCompression, { message: string }>> {
  const summarizer = summarizerFor(remote);
  const started = clock();
  try {
    const outcome = await compactConversation(
      strategy,
      {
        reason: options.reason ?? 'replay',
        systemPrompt: options.systemPrompt ?? '',
        messages: source.messages,
        tools: source.tools,
        config: options.config,
        state: options.state ?? INITIAL_COMPRESSOR_STATE,
        force: options.force ?? true,
        ...(options.tailTokenBudgetOverride !== undefined
          ? { tailTokenBudgetOverride: options.tailTokenBudgetOverride }
          : {}),
        today: options.today ?? null,
        mainModel: options.mainModel ?? null,
        ...(source.prepared !== undefined ? { prepared: source.prepared } : {}),
        ...(source.tokens ? { tokens: source.tokens } : {}),
        ...(options.focusTopic ? { focusTopic: options.focusTopic } : {}),
        ...(options.currentTokens !== undefined ? { currentTokens: options.currentTokens } : {}),
        ...(options.summaryOverrides ? { summaryOverrides: options.summaryOverrides } : {}),
        ...(options.pinned ? { pinned: new Set(options.pinned) } : {}),
      },
      { summarizer, now: () => Date.now() },
    );
    const diff = diffCompression(source.messages, outcome.messages, outcome.skipped ? null : outcome.fates);
    const assessment = outcome.skipped ? null : assess(outcome, strategy, options, source.caches);
    const pinned = [
      ...locatePinnedMessages(outcome.input, options.pinned ?? [], outcome.messages).values(),
    ].sort((left, right) => left - right);
    return ok(toLabCompression(strategy, outcome, diff, assessment, pinned, summarizer, clock() - started));
  } catch (error) {
    return err({ message: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * Fidelity and ledger of a lab compaction, counted as the strategy counts (its rough
 * estimator): the same basis as its trigger, and fast enough to run on every replay.
 */
function assess(
  outcome: ConversationCompaction,
  strategy: Strategy,
  options: LabCompressOptions,
  caches: AssessmentCaches | undefined,
): CompactionAssessment {
  const { preset } = strategy;
  return assessCompaction({
    input: outcome.input,
    output: outcome.messages,
    fates: outcome.fates,
    summaries: outcome.compaction.summaries,
    summarizerCalls: outcome.compaction.summarizerCalls,
    preset,
    route: options.route ?? routeForModel(options.mainModel ?? null),
    countMessage: (message) => estimateMessageTokensRough(message, preset),
    countText: estimateTokensRough,
    ...(caches ? { caches } : {}),
    ...(options.pinned ? { pinned: options.pinned } : {}),
    ...(options.summaryUsage !== undefined ? { summaryUsage: options.summaryUsage } : {}),
    ...(options.summaryMeasured !== undefined ? { summaryMeasured: options.summaryMeasured } : {}),
  });
}

function toLabCompression(
  strategy: Strategy,
  outcome: ConversationCompaction,
  diff: LabCompression['diff'],
  assessment: CompactionAssessment | null,
  pinned: readonly number[],
  summarizer: Summarizer,
  elapsedMs: number,
): LabCompression {
  const { compaction } = outcome;
  let hermes: LabCompression['hermes'] = null;
  if (compaction.hermes) {
    // The page has the messages once, in `messages`, and the prompt once, in the summary: Hermes'
    // own copies are not sent twice.
    const { messages: _omitted, prompt: _inTheSummary, ...details } = compaction.hermes;
    hermes = details;
  }
  return {
    strategy: strategy.name,
    strategyLabel: strategy.label,
    messages: outcome.messages,
    state: outcome.state,
    skipped: outcome.skipped,
    notes: outcome.notes,
    fates: outcome.fates,
    pinned,
    pruned: compaction.pruned,
    summaries: compaction.summaries,
    reattached: compaction.reattached,
    tokensBefore: outcome.tokensBefore,
    tokensAfter: outcome.tokensAfter,
    requestTokensBefore: outcome.requestTokensBefore,
    requestTokensAfter: outcome.requestTokensAfter,
    summarizerCalls: compaction.summarizerCalls,
    warning: compaction.warning,
    hermes,
    diff,
    assessment,
    summarizerLabel: summarizer.label,
    offline: summarizer.offline,
    elapsedMs,
  };
}
