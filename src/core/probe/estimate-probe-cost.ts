import type { Preset } from '../presets/preset.ts';
import { estimateTokensRough } from '../tokens/estimate-tokens-rough.ts';
import { messageText } from '../transcript/message.ts';
import { EMPTY_USAGE } from '../usage/canonical-usage.ts';
import { costUsdNumber, estimateUsageCost, type CostRoute } from '../usage/estimate-usage-cost.ts';
import { probeFactMessages, probeQuestion } from './probe-messages.ts';

/**
 * What the estimate reads of the replay the probe repeats: the same strategy, settings and
 * summariser compacted the same transcript (without the facts) just before, so its summariser
 * calls and its result are the best forecast of the probe's.
 */
export interface ProbeReplayFigures {
  /** Summariser calls the replay's compaction made (none for a strategy that only drops). */
  readonly summaryCalls: number;
  /** Rough tokens of those calls' prompts and summaries (the replay's ledger). */
  readonly summaryInputTokens: number;
  readonly summaryOutputTokens: number;
  /** Rough tokens of the compacted messages (what the question is asked over). */
  readonly tokensAfter: number;
}

export interface ProbeEstimateInput {
  readonly count: number;
  readonly replay: ProbeReplayFigures;
  /** The model that answers the question. */
  readonly mainModel: string;
  /** The model that writes the summaries (the auxiliary model, or the main one). */
  readonly summaryModel: string;
  readonly route: CostRoute;
  readonly preset: Preset;
}

export interface ProbeEstimate {
  readonly summaryCalls: number;
  /** Summariser calls plus the one question. */
  readonly calls: number;
  readonly summaryInputTokens: number;
  readonly summaryOutputTokens: number;
  readonly questionInputTokens: number;
  readonly questionOutputTokens: number;
  /** Dollars at the built-in list prices; null when either model has no price ("price unknown"). */
  readonly usd: number | null;
}

/** Per-message framing the rough estimate adds (role and separators). */
const MESSAGE_OVERHEAD_TOKENS = 4;
/** A value as long as any `makeProbeValues` writes is close to: the estimate's stand-in. */
const SAMPLE_VALUE = 'frosted-glacier-4821';

/**
 * The probe's cost before it runs, in rough tokens (4 characters a token): the summariser calls
 * of the replay plus the planted facts; the question over the replay's compacted messages plus
 * the facts (should they be kept as text) and the question; one short answer line per fact.
 * Priced with the built-in price table; an unpriced model gives null, never $0.
 *
 * @example estimateProbeCost({ count: 5, replay, mainModel, summaryModel, route, preset }).calls // 2
 */
export function estimateProbeCost(input: ProbeEstimateInput): ProbeEstimate {
  const { count, replay } = input;
  const labels = Array.from({ length: count }, (_, index) => `P${index + 1}`);
  const plantedTokens = labels.reduce(
    (total, label) =>
      total +
      probeFactMessages(label, SAMPLE_VALUE).reduce(
        (sum, message) => sum + estimateTokensRough(messageText(message)) + MESSAGE_OVERHEAD_TOKENS,
        0,
      ),
    0,
  );
  const summaryCalls = replay.summaryCalls;
  const summaryInputTokens = summaryCalls === 0 ? 0 : replay.summaryInputTokens + plantedTokens;
  const summaryOutputTokens = summaryCalls === 0 ? 0 : replay.summaryOutputTokens;
  const questionInputTokens =
    replay.tokensAfter + plantedTokens + estimateTokensRough(probeQuestion(labels)) + MESSAGE_OVERHEAD_TOKENS;
  const questionOutputTokens = labels.reduce(
    (total, label) => total + estimateTokensRough(`${label}: ${SAMPLE_VALUE}\n`),
    0,
  );
  const summaryUsd =
    summaryCalls === 0
      ? 0
      : priced(input, input.summaryModel, summaryInputTokens, summaryOutputTokens, summaryCalls);
  const questionUsd = priced(input, input.mainModel, questionInputTokens, questionOutputTokens, 1);
  return {
    summaryCalls,
    calls: summaryCalls + 1,
    summaryInputTokens,
    summaryOutputTokens,
    questionInputTokens,
    questionOutputTokens,
    usd: summaryUsd === null || questionUsd === null ? null : summaryUsd + questionUsd,
  };
}

function priced(
  input: ProbeEstimateInput,
  model: string,
  inputTokens: number,
  outputTokens: number,
  requestCount: number,
): number | null {
  const estimate = estimateUsageCost(
    model,
    { ...EMPTY_USAGE, inputTokens, outputTokens, requestCount },
    input.route,
    input.preset,
  );
  return estimate.amountUsd === null ? null : costUsdNumber(estimate);
}
