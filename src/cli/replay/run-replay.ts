import { Tiktoken } from 'js-tiktoken/lite';
import { DEFAULT_COMPRESSION_CONFIG, type CompressionConfig } from '../../core/config/compression-config.ts';
import { compress, type CompressionResult } from '../../core/compression/compress.ts';
import { createCompressorState } from '../../core/compression/compressor-state.ts';
import { createOfflineSummarizer } from '../../core/compression/offline-summarizer.ts';
import { planCompression, type CompressionPlan } from '../../core/compression/plan-compression.ts';
import type { ImportResult } from '../../core/import/import-result.ts';
import { countMessageTokens } from '../../core/tokens/count-message-tokens.ts';
import { estimateMessagesTokensRough } from '../../core/tokens/estimate-messages-tokens-rough.ts';
import type { Estimator, TokenEncoding } from '../../core/tokens/estimator.ts';
import { boundTokenCounter } from '../../core/tokens/bound-token-counter.ts';
import type { TokenCounter } from '../../core/tokens/token-counter.ts';
import type { Message } from '../../core/transcript/message.ts';
import type { ReplayOptions } from './parse-replay-options.ts';

export interface Range {
  start: number;
  end: number;
}

/** The `--json` report of SPEC §2.1. Indices are 0-based, half-open, into the imported list. */
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
  timings: { importMs: number; compressMs: number };
}

export interface ReplayOutcome {
  report: ReplayReport;
  plan: CompressionPlan;
  result: CompressionResult;
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
  // Bounded: js-tiktoken's merge is quadratic in one piece (a 100k-character run never finished).
  return boundTokenCounter({ count: (text) => encoder.encode(text, 'all', []).length });
}

async function messageTokens(
  messages: readonly Message[],
  estimator: Estimator,
  options: ReplayOptions,
): Promise<number> {
  if (estimator === 'rough') return estimateMessagesTokensRough(messages, options.preset);
  const counter = await exactCounter(estimator);
  let total = 0;
  for (const message of messages) total += countMessageTokens(message, counter);
  return total;
}

/** Plans and runs one compression of an imported transcript with the offline summariser. */
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
    preset: options.preset,
    state,
    currentTokens: tokensBefore,
    nowMs: now(),
  });

  const started = performance.now();
  const result = await compress(
    messages,
    {
      config,
      preset: options.preset,
      state,
      currentTokens: tokensBefore,
      force: true,
      ...(options.focus !== null ? { focusTopic: options.focus } : {}),
      today: null,
    },
    { summarizer: createOfflineSummarizer(), now },
  );
  const compressMs = performance.now() - started;

  const n = messages.length;
  const boundaries = result.boundaries;
  const headEnd = boundaries ? boundaries.headEnd : n;
  const tailStart = boundaries ? boundaries.tailStart : n;
  const tokensAfter = result.skipped
    ? tokensBefore
    : await messageTokens(result.messages, options.estimator, options);
  return {
    plan,
    result,
    estimator: options.estimator,
    report: {
      format: imported.transcript.metadata.format,
      preset: options.preset,
      messagesBefore: n,
      messagesAfter: result.messages.length,
      tokensBefore,
      tokensAfter,
      thresholdTokens: plan.thresholds.thresholdTokens,
      tailTokenBudget: plan.tailTokenBudget,
      shouldCompress: plan.wouldCompress,
      head: { start: 0, end: headEnd },
      middle: { start: headEnd, end: tailStart },
      tail: { start: tailStart, end: n },
      prunedCount: result.prunedCount,
      summaryBudget: result.summaryBudgetTokens,
      summary: result.summary,
      messages: result.messages,
      timings: { importMs: round(importMs), compressMs: round(compressMs) },
    },
  };
}

const round = (value: number): number => Math.round(value * 100) / 100;
