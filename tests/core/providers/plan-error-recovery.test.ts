import { describe, expect, it } from 'vitest';
import type { ClassifiedError } from '#core/errors/classified-error.ts';
import { classifyApiError } from '#core/errors/classify-api-error.ts';
import type { FailoverReason } from '#core/errors/failover-reason.ts';
import {
  planErrorRecovery,
  RECOVERY_FAILURE_TEXTS,
  type ErrorRecoveryInput,
} from '#core/providers/plan-error-recovery.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

function classified(reason: FailoverReason, overrides: Partial<ClassifiedError> = {}): ClassifiedError {
  return {
    reason,
    statusCode: 400,
    message: 'error text',
    retryable: true,
    shouldCompress: false,
    shouldRotateCredential: false,
    shouldFallback: false,
    ...overrides,
  };
}

function input(
  reason: FailoverReason,
  message: string,
  overrides: Partial<ErrorRecoveryInput> = {},
): ErrorRecoveryInput {
  return {
    classified: classified(reason),
    message,
    compressionAttempts: 0,
    retryAttempts: 0,
    contextLength: 200_000,
    requestTokens: 150_000,
    compressionEnabled: true,
    random: 0.5,
    ...overrides,
  };
}

const PROMPT_TOO_LONG = 'prompt is too long: 210000 tokens > 190000 maximum';
const ANTHROPIC_OUTPUT_CAP =
  'max_tokens: 32768 > context_window: 200000 - input_tokens: 190000 = available_tokens: 10000';
const UNPARSEABLE_OUTPUT_CAP = 'max_tokens must be less than or equal to 8192';

describe('planErrorRecovery', () => {
  it('fails with the compression-disabled text when auto-compaction is off', () => {
    for (const reason of ['context_overflow', 'payload_too_large', 'long_context_tier'] as const) {
      expect(
        planErrorRecovery(input(reason, PROMPT_TOO_LONG, { compressionEnabled: false }), HERMES_2026_04),
      ).toEqual({
        kind: 'fail',
        message:
          'Context overflow and auto-compaction is disabled (compression.enabled: false). Run /compress to compact manually, /new to start fresh, or switch to a larger-context model.',
        compressionExhausted: true,
      });
    }
  });

  it('still lowers max_tokens for an output-cap error when compression is off', () => {
    const action = planErrorRecovery(
      input('context_overflow', ANTHROPIC_OUTPUT_CAP, { compressionEnabled: false }),
      HERMES_2026_04,
    );
    expect(action.kind).toBe('retry-with-max-tokens');
  });

  it('steps a refused long-context tier down to 200K and compresses, not persistably', () => {
    expect(
      planErrorRecovery(
        input('long_context_tier', 'extra usage long context', { contextLength: 1_000_000 }),
        HERMES_2026_07,
      ),
    ).toEqual({
      kind: 'compress-and-retry',
      compressionAttempts: 1,
      newContextLength: 200_000,
      persistable: false,
    });
    expect(planErrorRecovery(input('long_context_tier', 'extra usage long context'), HERMES_2026_07)).toEqual(
      {
        kind: 'compress-and-retry',
        compressionAttempts: 1,
        persistable: false,
      },
    );
  });

  it('gives up a long-context-tier error after the third attempt', () => {
    expect(
      planErrorRecovery(input('long_context_tier', 'x', { compressionAttempts: 3 }), HERMES_2026_07),
    ).toEqual({
      kind: 'fail',
      message: 'Context length exceeded: max compression attempts (3) reached.',
      compressionExhausted: true,
    });
  });

  it('compresses a 413 and gives up after three attempts with the payload text', () => {
    expect(
      planErrorRecovery(
        input('payload_too_large', 'Request Entity Too Large', { compressionAttempts: 2 }),
        HERMES_2026_04,
      ),
    ).toEqual({
      kind: 'compress-and-retry',
      compressionAttempts: 3,
      persistable: false,
    });
    expect(
      planErrorRecovery(
        input('payload_too_large', 'Request Entity Too Large', { compressionAttempts: 3 }),
        HERMES_2026_04,
      ),
    ).toEqual({
      kind: 'fail',
      message: 'Request payload too large: max compression attempts (3) reached.',
      compressionExhausted: true,
    });
  });

  it('2026-04: retries an output-cap error with available − 64 and the window unchanged', () => {
    expect(
      planErrorRecovery(
        input('context_overflow', ANTHROPIC_OUTPUT_CAP, { requestTokens: 195_000 }),
        HERMES_2026_04,
      ),
    ).toEqual({
      kind: 'retry-with-max-tokens',
      maxTokens: 9936,
      compressionAttempts: 1,
    });
  });

  it('2026-07: caps the output retry by the local room too, unless there is none', () => {
    expect(
      planErrorRecovery(
        input('context_overflow', ANTHROPIC_OUTPUT_CAP, { requestTokens: 195_000 }),
        HERMES_2026_07,
      ),
    ).toMatchObject({
      kind: 'retry-with-max-tokens',
      maxTokens: 4936,
    });
    expect(
      planErrorRecovery(
        input('context_overflow', ANTHROPIC_OUTPUT_CAP, { requestTokens: 250_000 }),
        HERMES_2026_07,
      ),
    ).toMatchObject({
      maxTokens: 9936,
    });
  });

  it('counts output-cap retries against the shared budget of three', () => {
    expect(
      planErrorRecovery(
        input('context_overflow', ANTHROPIC_OUTPUT_CAP, { compressionAttempts: 3 }),
        HERMES_2026_07,
      ),
    ).toEqual({
      kind: 'fail',
      message: 'Context length exceeded: max compression attempts (3) reached.',
      compressionExhausted: true,
    });
  });

  it('2026-07: fails fast on an output-cap error without a number, never compressing', () => {
    expect(planErrorRecovery(input('context_overflow', UNPARSEABLE_OUTPUT_CAP), HERMES_2026_07)).toEqual({
      kind: 'fail',
      message: RECOVERY_FAILURE_TEXTS.outputCap,
      compressionExhausted: false,
    });
    expect(RECOVERY_FAILURE_TEXTS.outputCap).toBe(
      "max_tokens exceeds the provider's output cap for this model. Lower model.max_tokens in config.yaml.",
    );
  });

  it('2026-04: treats the same unparseable output-cap error as an input overflow and probes down', () => {
    expect(planErrorRecovery(input('context_overflow', UNPARSEABLE_OUTPUT_CAP), HERMES_2026_04)).toEqual({
      kind: 'compress-and-retry',
      compressionAttempts: 1,
      newContextLength: 128_000,
      persistable: false,
    });
  });

  it('2026-07: adopts a stated window below the current one, persistably, and compresses', () => {
    expect(planErrorRecovery(input('context_overflow', PROMPT_TOO_LONG), HERMES_2026_07)).toEqual({
      kind: 'compress-and-retry',
      compressionAttempts: 1,
      newContextLength: 190_000,
      persistable: true,
    });
  });

  it('2026-07: keeps the window when the error states none, or one not below it', () => {
    const expected = { kind: 'compress-and-retry', compressionAttempts: 1, persistable: false };
    expect(planErrorRecovery(input('context_overflow', 'context window exceeded'), HERMES_2026_07)).toEqual(
      expected,
    );
    expect(
      planErrorRecovery(
        input('context_overflow', PROMPT_TOO_LONG, { contextLength: 128_000 }),
        HERMES_2026_07,
      ),
    ).toEqual(expected);
  });

  it('2026-04: steps down through the probe tiers when no number parses', () => {
    expect(planErrorRecovery(input('context_overflow', 'context window exceeded'), HERMES_2026_04)).toEqual({
      kind: 'compress-and-retry',
      compressionAttempts: 1,
      newContextLength: 128_000,
      persistable: false,
    });
    expect(
      planErrorRecovery(
        input('context_overflow', 'context window exceeded', { contextLength: 8_000 }),
        HERMES_2026_04,
      ),
    ).toEqual({
      kind: 'compress-and-retry',
      compressionAttempts: 1,
      persistable: false,
    });
  });

  it('2026-04: a parsed window below the current one is persistable', () => {
    expect(planErrorRecovery(input('context_overflow', PROMPT_TOO_LONG), HERMES_2026_04)).toEqual({
      kind: 'compress-and-retry',
      compressionAttempts: 1,
      newContextLength: 190_000,
      persistable: true,
    });
  });

  it('fails an input overflow after the third compression attempt', () => {
    expect(
      planErrorRecovery(
        input('context_overflow', PROMPT_TOO_LONG, { compressionAttempts: 3 }),
        HERMES_2026_04,
      ),
    ).toEqual({
      kind: 'fail',
      message: 'Context length exceeded: max compression attempts (3) reached.',
      compressionExhausted: true,
    });
  });

  it('waits out a rate limit, honouring retry-after', () => {
    expect(
      planErrorRecovery(
        {
          ...input('rate_limit', 'rate limited'),
          classified: classified('rate_limit', { statusCode: 429 }),
          retryAfterMs: 5000,
        },
        HERMES_2026_04,
      ),
    ).toEqual({ kind: 'retry-after-backoff', delayMs: 5000, retryAttempts: 1 });
  });

  it('backs off exponentially for overload, server errors and timeouts', () => {
    for (const reason of ['overloaded', 'server_error', 'timeout'] as const) {
      expect(planErrorRecovery(input(reason, 'x', { retryAttempts: 1, random: 0 }), HERMES_2026_07)).toEqual({
        kind: 'retry-after-backoff',
        delayMs: 1000,
        retryAttempts: 2,
      });
    }
  });

  it('gives up transient errors after three attempts', () => {
    expect(
      planErrorRecovery(
        {
          ...input('overloaded', 'x', { retryAttempts: 2 }),
          classified: classified('overloaded', { statusCode: 529, message: 'Overloaded' }),
        },
        HERMES_2026_07,
      ),
    ).toEqual({
      kind: 'fail',
      message: 'API call failed after 3 attempts: Overloaded',
      compressionExhausted: false,
    });
  });

  it('fails at once on errors that are not retryable', () => {
    expect(
      planErrorRecovery(
        {
          ...input('auth', 'x'),
          classified: classified('auth', { statusCode: 401, retryable: false, message: 'invalid x-api-key' }),
        },
        HERMES_2026_07,
      ),
    ).toEqual({
      kind: 'fail',
      message: 'Provider error (HTTP 401), not retried [auth]: invalid x-api-key',
      compressionExhausted: false,
    });
    expect(
      planErrorRecovery(
        {
          ...input('timeout', 'x'),
          classified: classified('timeout', { statusCode: null, retryable: false }),
        },
        HERMES_2026_07,
      ).kind,
    ).toBe('fail');
  });

  it('plans compression for a real Anthropic overflow as the classifier sees it', () => {
    const message = `400 {"type":"error","error":{"type":"invalid_request_error","message":"${PROMPT_TOO_LONG}"}}`;
    const result = classifyApiError(
      {
        message,
        statusCode: 400,
        body: { type: 'error', error: { type: 'invalid_request_error', message: PROMPT_TOO_LONG } },
        errorType: null,
      },
      {
        provider: 'anthropic',
        model: 'claude-test',
        approxTokens: 210_000,
        contextLength: 200_000,
        numMessages: 40,
      },
      HERMES_2026_04,
    );
    expect(result.reason).toBe('context_overflow');
    expect(
      planErrorRecovery(input('context_overflow', message, { classified: result }), HERMES_2026_04),
    ).toMatchObject({
      kind: 'compress-and-retry',
      newContextLength: 190_000,
    });
  });
});
