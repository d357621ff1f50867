import { promptTokens, totalTokens } from '../../../core/usage/canonical-usage.ts';
import { normalizeUsage } from '../../../core/usage/normalize-usage.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

interface UsageInput {
  usage: unknown;
  provider: string | null;
  api_mode: string | null;
}

export const adapter: VectorAdapter = {
  inputKeys: () => ['usage', 'provider', 'api_mode'],
  run(testCase, preset) {
    const input = testCase.input as UsageInput;
    const usage = normalizeUsage(
      input.usage,
      { provider: input.provider ?? '', apiMode: input.api_mode ?? '' },
      preset,
    );
    return {
      input_tokens: usage.inputTokens,
      output_tokens: usage.outputTokens,
      cache_read_tokens: usage.cacheReadTokens,
      cache_write_tokens: usage.cacheWriteTokens,
      reasoning_tokens: usage.reasoningTokens,
      request_count: usage.requestCount,
      prompt_tokens: promptTokens(usage),
      total_tokens: totalTokens(usage),
    };
  },
};
