import { Tiktoken } from 'js-tiktoken/lite';
import { createCompressorState } from '../../core/compression/compressor-state.ts';
import { createOfflineSummarizer } from '../../core/compression/offline-summarizer.ts';
import { DEFAULT_COMPRESSION_CONFIG, type CompressionConfig } from '../../core/config/compression-config.ts';
import type { ImportResult } from '../../core/import/import-result.ts';
import { assessCompaction, type CompactionAssessment } from '../../core/lab/assess-compaction.ts';
import { createPlanner, type ExactBasis } from '../../core/lab/create-planner.ts';
import { describeTrigger } from '../../core/lab/describe-plan.ts';
import { routeForModel } from '../../core/lab/route-for-model.ts';
import type { LabPlan } from '../../core/lab/lab-plan.ts';
import {
  compactConversation,
  type ConversationCompaction,
} from '../../core/strategies/compact-conversation.ts';
import { FATE, type Strategy } from '../../core/strategies/strategy.ts';
import { countMessageTokens } from '../../core/tokens/count-message-tokens.ts';
import {
  estimateMessagesTokensRough,
  estimateMessageTokensRough,
} from '../../core/tokens/estimate-messages-tokens-rough.ts';
import { estimateTokensRough } from '../../core/tokens/estimate-tokens-rough.ts';
import type { Estimator, TokenEncoding } from '../../core/tokens/estimator.ts';
import { boundTokenCounter } from '../../core/tokens/bound-token-counter.ts';
import type { TokenCounter } from '../../core/tokens/token-counter.ts';
import { messageText, type Message } from '../../core/transcript/message.ts';
import type { ReplayOptions } from './parse-replay-options.ts';

export interface Range {
  start: number;
  end: number;
}

/**
 * What the replay did: compacted; left the transcript alone because the trigger would not
 * fire (and `--force` was not given); refused a compaction that would grow the context; or
 * found nothing the strategy could compact.
 */
export type ReplayDecision =
  | { kind: 'compacted' }
  | { kind: 'not-needed'; reason: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'skipped'; reason: string };

/** A lost fact as the report lists it: its kind, its text and the message it came from. */
export interface ReplayLostFact {
  kind: string;
  text: string;
  message: number;
}

/**
 * The `--json` report of SPEC §2.1, plus `strategy`, `decision`, `fidelity` and `ledger`
 * (issue 13). `preset` names the strategy (the contract's field name). Indices are 0-based,
 * half-open, into the imported list. When nothing was applied, `messages` is the imported list
 * and the `after` figures equal the `before` ones.
 */
export interface ReplayReport {
  format: string;
  preset: string;
  strategy: string;
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
  thresholdTokens: number;
  /** Hermes' tail budget; null for strategies that keep no token-budgeted tail. */
  tailTokenBudget: number | null;
  shouldCompress: boolean;
  head: Range;
  middle: Range;
  tail: Range;
  prunedCount: number;
  summaryBudget: number | null;
  /** The inserted summary text (every summary, in order, for strategies that write several). */
  summary: string | null;
  messages: Message[];
  decision: ReplayDecision;
  /** What survived of the summarised or dropped part; null when nothing was compacted. */
  fidelity: { score: number; total: number; lost: ReplayLostFact[] } | null;
  ledger: {
    summaryInputTokens: number;
    summaryOutputTokens: number;
    summaryUsd: number | null;
    cacheRewriteTokens: number;
    cacheRewriteUsd: number | null;
    savedTokensPerTurn: number;
    savedUsdPerTurn: number | null;
    breakEvenTurn: number | null;
    model: string;
    notes: string[];
  } | null;
  timings: { importMs: number; compressMs: number };
}

export interface ReplayOutcome {
  report: ReplayReport;
  plan: LabPlan;
  strategy: Strategy;
  /** Null when the trigger would not fire and nothing was compacted. */
  outcome: ConversationCompaction | null;
  assessment: CompactionAssessment | null;
  estimator: Estimator;
}

export function replayConfig(options: ReplayOptions): CompressionConfig {
  return {
    ...DEFAULT_COMPRESSION_CONFIG,
    contextLength: options.contextLength ?? DEFAULT_COMPRESSION_CONFIG.contextLength,
    thresholdPercent: options.threshold ?? DEFAULT_COMPRESSION_CONFIG.thresholdPercent,
    targetRatio: options.targetRatio ?? DEFAULT_COMPRESSION_CONFIG.targetRatio,
    protectLastN: options.protectLastN ?? DEFAULT_COMPRESSION_CONFIG.protectLastN,
    protectFirstN: options.protectFirstN ?? DEFAULT_COMPRESSION_CONFIG.protectFirstN,
    strategyOptions: options.strategyOptions,
  };
}

async function exactCounter(encoding: TokenEncoding): Promise<TokenCounter> {
  const ranks =
    encoding === 'o200k_base'
      ? (await import('js-tiktoken/ranks/o200k_base')).default
      : (await import('js-tiktoken/ranks/cl100k_base')).default;
  const encoder = new Tiktoken(ranks);
  // Bounded: js-tiktoken's merge is quadratic in one piece (a 100k-character run never finished).
  return boundTokenCounter({ count: (text) => encoder.encode(text, 'all', []).length });
}

/** How the report counts: the strategy's rough estimator, or an exact encoding. */
interface Counting {
  /** A list's total as the estimator rounds it (rough: once over all characters). */
  readonly total: (messages: readonly Message[]) => number;
  readonly message: (message: Message) => number;
  readonly text: (text: string) => number;
  readonly exact: ExactBasis | null;
}

async function countingFor(
  estimator: Estimator,
  strategy: Strategy,
  messages: readonly Message[],
  tools: readonly unknown[],
): Promise<Counting> {
  if (estimator === 'rough') {
    return {
      total: (list) => estimateMessagesTokensRough(list, strategy.preset),
      message: (message) => estimateMessageTokensRough(message, strategy.preset),
      text: estimateTokensRough,
      exact: null,
    };
  }
  const counter = await exactCounter(estimator);
  const perMessage = messages.map((message) => countMessageTokens(message, counter));
  const message = (item: Message): number => countMessageTokens(item, counter);
  return {
    total: (list) => list.reduce((total, item) => total + message(item), 0),
    message,
    text: (text) => counter.count(text),
    exact: {
      encoding: estimator,
      perMessage,
      toolsTokens: tools.length > 0 ? counter.count(JSON.stringify(tools)) : 0,
    },
  };
}

/**
 * Plans one compaction of an imported transcript with a strategy and runs it with the offline
 * summariser when the trigger fires (or `--force` asks): the same planner and the same
 * compaction operation the app runs in its worker. A result that would hold more tokens than
 * the transcript is refused and the transcript kept, with the reason.
 */
export async function runReplay(
  imported: ImportResult,
  options: ReplayOptions,
  importMs: number,
  now: () => number,
): Promise<ReplayOutcome> {
  const { strategy } = options;
  const messages = imported.transcript.messages;
  const tools = imported.transcript.metadata.tools ?? [];
  const config = replayConfig(options);
  const state = createCompressorState();
  const counting = await countingFor(options.estimator, strategy, messages, tools);
  const planner = createPlanner(messages, { tools });
  const plan = planner.plan(strategy, {
    config,
    state,
    estimator: options.estimator,
    exact: counting.exact,
    nowMs: now(),
  });
  const tokensBefore = counting.total(messages);
  const n = messages.length;
  const unchanged = {
    messagesAfter: n,
    tokensAfter: tokensBefore,
    prunedCount: 0,
    summaryBudget: null,
    summary: null,
    messages,
    fidelity: null,
    ledger: null,
  };
  const base = {
    format: imported.transcript.metadata.format,
    preset: strategy.name,
    strategy: strategy.name,
    messagesBefore: n,
    tokensBefore,
    thresholdTokens: plan.trigger.thresholdTokens,
    tailTokenBudget: plan.hermes?.tailTokenBudget ?? null,
    shouldCompress: plan.wouldCompress,
    ...ranges(plan.headEnd, plan.tailStart, n),
  };
  const result = (
    decision: ReplayDecision,
    timings: ReplayReport['timings'],
    extra: Partial<ReplayReport> = {},
    outcome: ConversationCompaction | null = null,
    assessment: CompactionAssessment | null = null,
  ): ReplayOutcome => ({
    plan,
    strategy,
    outcome,
    assessment,
    estimator: options.estimator,
    report: { ...base, ...unchanged, ...extra, decision, timings },
  });

  if (!plan.wouldCompress && !options.force) {
    const reason = describeTrigger(plan).details.join(' ');
    return result({ kind: 'not-needed', reason }, { importMs: round(importMs), compressMs: 0 });
  }

  const started = performance.now();
  const outcome = await compactConversation(
    strategy,
    {
      reason: options.force ? 'manual' : 'replay',
      systemPrompt: '',
      messages,
      tools,
      config,
      state,
      prepared: planner.prepared(strategy),
      tokens: {
        of: (index) => plan.tokensPerMessage[index] ?? 0,
        request: plan.totalTokens,
        exact: counting.exact !== null,
      },
      currentTokens: plan.triggerTokens,
      force: true,
      today: null,
      ...(options.focus !== null ? { focusTopic: options.focus } : {}),
    },
    { summarizer: createOfflineSummarizer(), now },
  );
  const timings = { importMs: round(importMs), compressMs: round(performance.now() - started) };
  const reason = outcome.notes.join(' ');
  if (outcome.skipped === 'would-grow') return result({ kind: 'refused', reason }, timings, {}, outcome);
  if (outcome.skipped !== null) return result({ kind: 'skipped', reason }, timings, {}, outcome);

  const route = routeForModel(options.model ?? imported.transcript.metadata.model ?? null);
  const assessment = assessCompaction({
    input: outcome.input,
    output: outcome.messages,
    fates: outcome.fates,
    summaries: outcome.compaction.summaries,
    summarizerCalls: outcome.compaction.summarizerCalls,
    preset: strategy.preset,
    route,
    countMessage: counting.message,
    countText: counting.text,
  });
  const { compaction } = outcome;
  const summaryTexts = compaction.summaries.map((summary) =>
    summary.outputIndex >= 0 ? messageText(outcome.messages[summary.outputIndex]!) : summary.body,
  );
  let prunedCount = 0;
  for (const fate of outcome.fates) if (fate === FATE.pruned) prunedCount++;
  const { ledger } = assessment;
  return result(
    { kind: 'compacted' },
    timings,
    {
      messagesAfter: outcome.messages.length,
      tokensAfter: counting.total(outcome.messages),
      prunedCount: compaction.hermes?.prunedCount ?? prunedCount,
      summaryBudget: compaction.hermes?.summaryBudgetTokens ?? (plan.after.summaryTokens || null),
      summary: summaryTexts.length > 0 ? summaryTexts.join('\n\n') : null,
      messages: outcome.messages,
      fidelity: {
        score: assessment.fidelity.score,
        total: assessment.fidelity.total,
        lost: assessment.fidelity.lost.map((fact) => ({
          kind: fact.kind,
          text: fact.display,
          message: fact.messageIndex,
        })),
      },
      ledger: {
        summaryInputTokens: ledger.summaryInputTokens,
        summaryOutputTokens: ledger.summaryOutputTokens,
        summaryUsd: ledger.summaryUsd,
        cacheRewriteTokens: ledger.cacheRewriteTokens,
        cacheRewriteUsd: ledger.cacheRewriteUsd,
        savedTokensPerTurn: ledger.savedTokensPerTurn,
        savedUsdPerTurn: ledger.savedUsdPerTurn,
        breakEvenTurn: ledger.breakEvenTurn,
        model: route.model,
        notes: ledger.notes,
      },
    },
    outcome,
    assessment,
  );
}

/** Head, middle and tail as half-open ranges. */
function ranges(headEnd: number, tailStart: number, n: number): { head: Range; middle: Range; tail: Range } {
  return {
    head: { start: 0, end: headEnd },
    middle: { start: headEnd, end: tailStart },
    tail: { start: tailStart, end: n },
  };
}

const round = (value: number): number => Math.round(value * 100) / 100;
