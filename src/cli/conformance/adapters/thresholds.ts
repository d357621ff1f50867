import { DEFAULT_COMPRESSION_CONFIG } from '../../../core/config/compression-config.ts';
import { computeSummaryBudget } from '../../../core/config/compute-summary-budget.ts';
import { deriveThresholds } from '../../../core/config/derive-thresholds.ts';
import { estimateMessagesTokensRough } from '../../../core/tokens/estimate-messages-tokens-rough.ts';
import type { Message } from '../../../core/transcript/message.ts';
import { UnknownVectorFieldError, unknownStep } from '../require-known-fields.ts';
import type { VectorAdapter, VectorCase } from '../vector-adapter.ts';

interface ThresholdsInput {
  context_length: number;
  threshold_percent?: number;
  summary_target_ratio?: number;
  max_tokens?: number | null;
  turns?: Message[];
}

const SUMMARY_BUDGET_FUNCTION = '_compute_summary_budget';

function isSummaryBudgetCase(testCase: VectorCase): boolean {
  if (testCase.function === undefined) return false;
  if (testCase.function === SUMMARY_BUDGET_FUNCTION) return true;
  return unknownStep('function', testCase.function, [SUMMARY_BUDGET_FUNCTION]);
}

/** Derived thresholds, or the summary budget of `turns` (`function: _compute_summary_budget`). */
export const adapter: VectorAdapter = {
  caseKeys: ['function'],
  inputKeys: (testCase) =>
    isSummaryBudgetCase(testCase)
      ? ['context_length', 'threshold_percent', 'summary_target_ratio', 'turns']
      : ['context_length', 'threshold_percent', 'summary_target_ratio', 'max_tokens'],
  run(testCase, preset) {
    const input = testCase.input as ThresholdsInput;
    const derived = deriveThresholds(
      {
        ...DEFAULT_COMPRESSION_CONFIG,
        contextLength: input.context_length,
        thresholdPercent: input.threshold_percent ?? DEFAULT_COMPRESSION_CONFIG.thresholdPercent,
        targetRatio: input.summary_target_ratio ?? DEFAULT_COMPRESSION_CONFIG.targetRatio,
        maxTokens: input.max_tokens ?? null,
      },
      preset,
    );
    if (isSummaryBudgetCase(testCase)) {
      const turns = input.turns;
      if (!Array.isArray(turns))
        throw new UnknownVectorFieldError('input.turns: expected a list of messages');
      return {
        content_tokens: estimateMessagesTokensRough(turns, preset),
        max_summary_tokens: derived.maxSummaryTokens,
        summary_budget: computeSummaryBudget(turns, derived.maxSummaryTokens, preset),
      };
    }
    // The 2026-04 constructor had no max_tokens parameter at all.
    if (input.max_tokens != null && !preset.thresholds.reservesMaxTokens) {
      return { unsupported: 'max_tokens parameter not in this version' };
    }
    return {
      effective_threshold_percent: derived.effectiveThresholdPercent,
      threshold_tokens: derived.thresholdTokens,
      tail_token_budget: derived.tailTokenBudget,
      max_summary_tokens: derived.maxSummaryTokens,
      summary_target_ratio: derived.targetRatio,
    };
  },
};
