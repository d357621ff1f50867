import { Tiktoken } from 'js-tiktoken/lite';
import { DEFAULT_COMPRESSION_CONFIG, type CompressionConfig } from '../../core/config/compression-config.ts';
import { compress, type CompressionResult } from '../../core/compression/compress.ts';
import { judgeCompactionGrowth } from '../../core/compression/judge-compaction-growth.ts';
import { createCompressorState } from '../../core/compression/compressor-state.ts';
import { createOfflineSummarizer } from '../../core/compression/offline-summarizer.ts';
import { planCompression, type CompressionPlan } from '../../core/compression/plan-compression.ts';
import type { ImportResult } from '../../core/import/import-result.ts';
import { getPreset } from '../../core/presets/preset.ts';
import { countMessageTokens } from '../../core/tokens/count-message-tokens.ts';
import { estimateMessagesTokensRough } from '../../core/tokens/estimate-messages-tokens-rough.ts';
import type { Estimator, TokenEncoding } from '../../core/tokens/estimator.ts';
import type { TokenCounter } from '../../core/tokens/token-counter.ts';
import type { Message } from '../../core/transcript/message.ts';
import { describePlanReason } from './describe-plan-reason.ts';
import type { ReplayOptions } from './parse-replay-options.ts';

export interface Range {
  start: number;
  end: number;
}

/**
 * What the replay did: compacted; left the transcript alone because the trigger would not
 * fire (and `--force` was not given); refused a compaction that would grow the context; or
 * found nothing compress() could summarise.
 */
export type ReplayDecision =
  | { kind: 'compacted' }
  | { kind: 'not-needed'; reason: string }
  | { kind: 'refused'; reason: string }
  | { kind: 'skipped'; reason: string };

/**
 * The `--json` report of SPEC §2.1, plus `decision`. Indices are 0-based, half-open, into the
 * imported list. When nothing was applied, `messages` is the imported list and the `after`
 * figures equal the `before` ones.
 */
export interface ReplayReport {
  format: string;
  preset: string;
  messagesBefore: number;
  messagesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
  thresholdTokens: number;
  tailTokenBudget: number;
  shouldCompress: boolean;
  head: Range;
  middle: Range;
  tail: Range;
  prunedCount: number;
  summaryBudget: number | null;
  summary: string | null;
  messages: Message[];
  decision: ReplayDecision;
  timings: { importMs: number; compressMs: number };
}

export interface ReplayOutcome {
  report: ReplayReport;
  plan: CompressionPlan;
  /** Null when the trigger would not fire and nothing was compressed. */
  result: CompressionResult | null;
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
  };
}

async function exactCounter(encoding: TokenEncoding): Promise<TokenCounter> {
  const ranks =
    encoding === 'o200k_base'
      ? (await import('js-tiktoken/ranks/o200k_base')).default
      : (await import('js-tiktoken/ranks/cl100k_base')).default;
  const encoder = new Tiktoken(ranks);
  return { count: (text) => encoder.encode(text, 'all', []).length };
}

async function messageTokens(
  messages: readonly Message[],
  estimator: Estimator,
  options: ReplayOptions,
): Promise<number> {
  if (estimator === 'rough') return estimateMessagesTokensRough(messages, getPreset(options.preset));
  const counter = await exactCounter(estimator);
  let total = 0;
  for (const message of messages) total += countMessageTokens(message, counter);
  return total;
}

/**
 * Plans one compression of an imported transcript and runs it with the offline summariser
 * when the trigger fires (or `--force` asks). A result that would hold more tokens than the
 * transcript is refused and the transcript kept, with the reason.
 */
export async function runReplay(
  imported: ImportResult,
  options: ReplayOptions,
  importMs: number,
  now: () => number,
): Promise<ReplayOutcome> {
  const messages = imported.transcript.messages;
  const config = replayConfig(options);
  const state = createCompressorState();
  const tokensBefore = await messageTokens(messages, options.estimator, options);
  const plan = planCompression(messages, {
    config,
    preset: getPreset(options.preset),
    state,
    currentTokens: tokensBefore,
    nowMs: now(),
  });
  const tokensLabel = options.estimator === 'rough' ? 'rough tokens' : `${options.estimator} tokens`;
  const n = messages.length;
  const unchanged = {
    messagesAfter: n,
    tokensAfter: tokensBefore,
    prunedCount: 0,
    summaryBudget: null,
    summary: null,
    messages,
  };
  const base = {
    format: imported.transcript.metadata.format,
    preset: options.preset,
    messagesBefore: n,
    tokensBefore,
    thresholdTokens: plan.thresholds.thresholdTokens,
    tailTokenBudget: plan.tailTokenBudget,
    shouldCompress: plan.wouldCompress,
  };

  if (!plan.wouldCompress && !options.force) {
    return {
      plan,
      result: null,
      estimator: options.estimator,
      report: {
        ...base,
        ...ranges(plan.boundaries, n),
        ...unchanged,
        decision: { kind: 'not-needed', reason: describePlanReason(plan, tokensLabel) },
        timings: { importMs: round(importMs), compressMs: 0 },
      },
    };
  }

  const started = performance.now();
  const result = await compress(
    messages,
    {
      config,
      preset: getPreset(options.preset),
      state,
      currentTokens: tokensBefore,
      force: true,
      ...(options.focus !== null ? { focusTopic: options.focus } : {}),
      today: null,
    },
    { summarizer: createOfflineSummarizer(), now },
  );
  const compressMs = performance.now() - started;
  const timings = { importMs: round(importMs), compressMs: round(compressMs) };
  const where = ranges(result.boundaries, n);

  if (result.skipped) {
    return {
      plan,
      result,
      estimator: options.estimator,
      report: {
        ...base,
        ...where,
        ...unchanged,
        decision: { kind: 'skipped', reason: result.skipped },
        timings,
      },
    };
  }
  const tokensAfter = await messageTokens(result.messages, options.estimator, options);
  const summarised = result.boundaries ? result.boundaries.tailStart - result.boundaries.headEnd : 0;
  const growth = judgeCompactionGrowth(tokensBefore, tokensAfter, summarised);
  if (growth.grows) {
    return {
      plan,
      result,
      estimator: options.estimator,
      report: {
        ...base,
        ...where,
        ...unchanged,
        decision: { kind: 'refused', reason: growth.reason! },
        timings,
      },
    };
  }
  return {
    plan,
    result,
    estimator: options.estimator,
    report: {
      ...base,
      ...where,
      messagesAfter: result.messages.length,
      tokensAfter,
      prunedCount: result.prunedCount,
      summaryBudget: result.summaryBudgetTokens,
      summary: result.summary,
      messages: result.messages,
      decision: { kind: 'compacted' },
      timings,
    },
  };
}

/** Head, middle and tail as half-open ranges; all head when there are no boundaries. */
function ranges(
  boundaries: { headEnd: number; tailStart: number } | null,
  n: number,
): { head: Range; middle: Range; tail: Range } {
  const headEnd = boundaries ? boundaries.headEnd : n;
  const tailStart = boundaries ? boundaries.tailStart : n;
  return {
    head: { start: 0, end: headEnd },
    middle: { start: headEnd, end: tailStart },
    tail: { start: tailStart, end: n },
  };
}

const round = (value: number): number => Math.round(value * 100) / 100;
