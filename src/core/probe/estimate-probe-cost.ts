import type { Preset } from '../presets/preset.ts';
import type { FateName, SummarySpan } from '../strategies/strategy.ts';
import { estimateTokensRough } from '../tokens/estimate-tokens-rough.ts';
import { EMPTY_USAGE } from '../usage/canonical-usage.ts';
import { costUsdNumber, estimateUsageCost, type CostRoute } from '../usage/estimate-usage-cost.ts';
import { messageText } from '../transcript/message.ts';
import { probeFactMessages, probeQuestion } from './probe-messages.ts';

/** What the estimate reads of the strategy's plan of the replayed transcript. */
export interface ProbePlanFigures {
  readonly summaries: readonly SummarySpan[];
  readonly fateTotals: Readonly<Record<FateName, { readonly tokens: number }>>;
  readonly after: { readonly tokens: number; readonly summaryTokens: number };
  readonly toolsTokens: number;
}

export interface ProbeEstimateInput {
  readonly count: number;
  readonly plan: ProbePlanFigures;
  /** The model that answers the question. */
  readonly mainModel: string;
  /** The model that writes the summaries (the auxiliary model, or the main one). */
  readonly summaryModel: string;
  readonly route: CostRoute;
  readonly preset: Preset;
}

export interface ProbeEstimate {
  /** Summariser calls as the strategy plans them (one per summary it writes; none when it only drops). */
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

/**
 * The probe's cost before it runs, from the plan and the rough estimate (4 characters a token):
 * the summariser reads what the plan summarises plus the planted facts and writes the summary
 * budget; the question call reads the projected context after the compaction (without tool
 * schemas: the question offers none) plus the facts and the question, and writes one short line
 * per fact. Priced with the built-in price table; an unpriced model gives null, never $0.
 */
export function estimateProbeCost(input: ProbeEstimateInput): ProbeEstimate {
  const { count, plan } = input;
  const labels = Array.from({ length: count }, (_, index) => `P${index + 1}`);
  const sample = 'frosted-glacier-4821';
  const plantedTokens = labels.reduce(
    (total, label) =>
      total +
      probeFactMessages(label, sample).reduce(
        (sum, message) => sum + estimateTokensRough(messageText(message)) + MESSAGE_OVERHEAD_TOKENS,
        0,
      ),
    0,
  );
  const summaryCalls = plan.summaries.length;
  const summaryInputTokens = summaryCalls === 0 ? 0 : plan.fateTotals.summarized.tokens + plantedTokens;
  const summaryOutputTokens = summaryCalls === 0 ? 0 : plan.after.summaryTokens;
  const questionInputTokens =
    Math.max(0, plan.after.tokens - plan.toolsTokens) +
    plantedTokens +
    estimateTokensRough(probeQuestion(labels)) +
    MESSAGE_OVERHEAD_TOKENS;
  const questionOutputTokens = labels.reduce(
    (total, label) => total + estimateTokensRough(`${label}: ${sample}\n`),
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
