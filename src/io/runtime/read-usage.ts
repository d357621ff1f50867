import type { CompressorState } from '../../core/compression/compressor-state.ts';
import type { Strategy } from '../../core/strategies/strategy.ts';
import { promptTokens, totalTokens } from '../../core/usage/canonical-usage.ts';
import { costUsdNumber, estimateUsageCost } from '../../core/usage/estimate-usage-cost.ts';
import type { ChatResponse } from '../llm/chat-client.ts';
import { hermesProviderName } from '../llm/provider-settings.ts';
import type { UsageReport } from '../../core/loop/conversation-event.ts';
import type { RuntimeSettings } from './runtime-settings.ts';

export interface UsageReading {
  readonly report: UsageReport;
  /** The compressor state after the reading (chat responses only; summary calls leave it). */
  readonly state: CompressorState;
  /** The canonical prompt count when the response reported usage, else null. */
  readonly promptTokens: number | null;
}

/**
 * Usage intake after one response (hermes-reference §9): the canonical buckets the client
 * normalised, fed to `update_from_response` as the canonical prompt (cache reads and writes
 * included) and `output_tokens` as completion; a response without usage still clears the
 * "awaiting real usage" flag. Cost comes from the built-in price table; the input side is
 * priced separately for the caching comparison.
 */
export function readUsage(
  response: ChatResponse,
  purpose: UsageReport['purpose'],
  context: {
    readonly state: CompressorState;
    readonly settings: RuntimeSettings;
    /** The strategy the turn runs: its live-loop hook takes the reading. */
    readonly strategy: Strategy;
    readonly thresholdTokens: number;
  },
): UsageReading {
  const { settings } = context;
  const preset = settings.strategy.preset;
  const canonical = response.usage.canonical;
  const reported = response.usage.raw !== null;
  let state = context.state;
  if (purpose === 'chat') {
    if (reported) {
      state = context.strategy.updateFromResponse(
        state,
        {
          prompt_tokens: promptTokens(canonical),
          completion_tokens: canonical.outputTokens,
          total_tokens: totalTokens(canonical),
        },
        context.thresholdTokens,
      );
    } else if (state.awaitingRealUsageAfterCompression) {
      state = context.strategy.updateFromResponse(state, {}, context.thresholdTokens);
    }
  }
  const provider = settings.provider;
  const model = response.model || provider?.model || '';
  const route = { provider: provider ? hermesProviderName(provider) : '', baseUrl: provider?.baseUrl ?? '' };
  const cost = estimateUsageCost(model, canonical, route, preset);
  const inputCost = estimateUsageCost(
    model,
    { ...canonical, outputTokens: 0, reasoningTokens: 0 },
    route,
    preset,
  );
  const prompt = promptTokens(canonical);
  return {
    state,
    promptTokens: reported ? prompt : null,
    report: {
      usage: canonical,
      promptTokens: prompt,
      cacheHitRate: prompt > 0 ? canonical.cacheReadTokens / prompt : 0,
      costUsd: cost.amountUsd === null ? null : costUsdNumber(cost),
      inputCostUsd: inputCost.amountUsd === null ? null : costUsdNumber(inputCost),
      model,
      purpose,
    },
  };
}
