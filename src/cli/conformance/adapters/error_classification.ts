import { classifyApiError } from '../../../core/errors/classify-api-error.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

interface ErrorInput {
  message: string;
  status_code: number | null;
  body: unknown;
  error_type: string | null;
  provider?: string;
  model?: string;
  approx_tokens?: number;
  context_length?: number;
  num_messages?: number;
}

export const adapter: VectorAdapter = {
  inputKeys: () => [
    'message',
    'status_code',
    'body',
    'error_type',
    'provider',
    'model',
    'approx_tokens',
    'context_length',
    'num_messages',
  ],
  run(testCase, preset) {
    const input = testCase.input as ErrorInput;
    const classified = classifyApiError(
      {
        message: input.message,
        statusCode: input.status_code,
        body: input.body,
        errorType: input.error_type,
      },
      {
        provider: input.provider ?? '',
        model: input.model ?? '',
        approxTokens: input.approx_tokens ?? 0,
        contextLength: input.context_length ?? 200_000,
        numMessages: input.num_messages ?? 0,
      },
      preset,
    );
    return {
      reason: classified.reason,
      retryable: classified.retryable,
      should_compress: classified.shouldCompress,
      should_rotate_credential: classified.shouldRotateCredential,
      should_fallback: classified.shouldFallback,
      status_code: classified.statusCode,
      message: classified.message,
    };
  },
};
