import {
  getContextLengthFromProviderError,
  getNextProbeTier,
  isOutputCapError,
  parseAvailableOutputTokensFromError,
  parseContextLimitFromError,
} from '../../../core/errors/context-error-parsing.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

interface ParsingInput {
  error_message?: string;
  current_lengths?: number[];
}

/** The current window the vectors pass to `get_context_length_from_provider_error`. */
const CURRENT_CONTEXT_LENGTH = 200_000;

export const adapter: VectorAdapter = {
  inputKeys: (testCase) =>
    'current_lengths' in (testCase.input as object) ? ['current_lengths'] : ['error_message'],
  run(testCase, preset) {
    const input = testCase.input as ParsingInput;
    if (Array.isArray(input.current_lengths)) {
      return Object.fromEntries(
        input.current_lengths.map((length) => [String(length), getNextProbeTier(length, preset)]),
      );
    }
    const message = input.error_message ?? '';
    const parsed = {
      parse_context_limit_from_error: parseContextLimitFromError(message, preset),
      parse_available_output_tokens_from_error: parseAvailableOutputTokensFromError(message, preset),
    };
    // The provider-error and output-cap helpers did not exist in 2026-04.
    if (preset.recovery.outputCapErrors === 'anthropic-available-tokens') return parsed;
    return {
      ...parsed,
      get_context_length_from_provider_error_ctx200000: getContextLengthFromProviderError(
        message,
        CURRENT_CONTEXT_LENGTH,
      ),
      is_output_cap_error: isOutputCapError(message),
    };
  },
};
