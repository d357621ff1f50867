import type { CanonicalUsage } from '../../../core/usage/canonical-usage.ts';
import { estimateUsageCost } from '../../../core/usage/estimate-usage-cost.ts';
import { requireKnownFields } from '../require-known-fields.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

interface CostInput {
  model: string;
  provider?: string | null;
  base_url?: string | null;
  usage: Partial<Record<string, number>>;
}

const USAGE_FIELDS = [
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
  'request_count',
];

export const adapter: VectorAdapter = {
  inputKeys: () => ['model', 'provider', 'base_url', 'usage'],
  run(testCase, preset) {
    const input = testCase.input as CostInput;
    requireKnownFields(input.usage, USAGE_FIELDS, 'input.usage');
    const usage: CanonicalUsage = {
      inputTokens: input.usage.input_tokens ?? 0,
      outputTokens: input.usage.output_tokens ?? 0,
      cacheReadTokens: input.usage.cache_read_tokens ?? 0,
      cacheWriteTokens: input.usage.cache_write_tokens ?? 0,
      reasoningTokens: input.usage.reasoning_tokens ?? 0,
      requestCount: input.usage.request_count ?? 1,
    };
    const estimate = estimateUsageCost(
      input.model,
      usage,
      { provider: input.provider ?? '', baseUrl: input.base_url ?? '' },
      preset,
    );
    return {
      route: {
        provider: estimate.route.provider,
        model: estimate.route.model,
        base_url: estimate.route.baseUrl,
        billing_mode: estimate.route.billingMode,
      },
      pricing_per_million: estimate.prices && {
        input: estimate.prices.input,
        output: estimate.prices.output,
        cache_read: estimate.prices.cacheRead,
        cache_write: estimate.prices.cacheWrite,
        source: estimate.prices.source,
      },
      amount_usd: estimate.amountUsd,
      status: estimate.status,
      source: estimate.source,
      label: estimate.label,
      pricing_version: estimate.pricingVersion,
      notes: estimate.notes,
    };
  },
};
