import { describe, expect, it } from 'vitest';
import { adapter } from '#cli/conformance/adapters/error_classification.ts';
import { classifyApiError, type ApiErrorInput } from '#core/errors/classify-api-error.ts';
import { hermesVectorRuns, runAdapter } from '../shared/load-hermes-vectors.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const error = (overrides: Partial<ApiErrorInput>): ApiErrorInput => ({
  message: '',
  statusCode: null,
  body: null,
  errorType: 'APIError',
  ...overrides,
});

describe('classifyApiError', () => {
  it.each(hermesVectorRuns('error_classification.json'))('matches the Hermes vector $name', (run) => {
    expect(runAdapter(adapter, run)).toEqual(run.expected);
  });

  it('classifies Anthropic thinking-signature rejections as retryable without compression', () => {
    const result = classifyApiError(
      error({ message: 'messages.1: thinking block has an invalid signature', statusCode: 400 }),
      {},
      HERMES_2026_04,
    );
    expect(result).toMatchObject({ reason: 'thinking_signature', retryable: true, shouldCompress: false });
  });

  it('recognises the frozen-thinking wording only in 2026-07', () => {
    const frozen = error({
      message: '`thinking` blocks in the latest assistant message cannot be modified',
      statusCode: 400,
    });
    expect(classifyApiError(frozen, {}, HERMES_2026_07).reason).toBe('thinking_signature');
    expect(classifyApiError(frozen, {}, HERMES_2026_04).reason).toBe('format_error');
  });

  it('sends the Anthropic long-context tier gate to compression', () => {
    const result = classifyApiError(
      error({ message: 'Extra usage is required for long context requests', statusCode: 429 }),
      {},
      HERMES_2026_04,
    );
    expect(result).toMatchObject({ reason: 'long_context_tier', shouldCompress: true });
  });

  it('reads an OpenRouter-wrapped upstream message from metadata.raw', () => {
    const result = classifyApiError(
      error({
        message: 'Provider returned error',
        statusCode: 400,
        body: {
          error: {
            message: 'Provider returned error',
            metadata: { raw: '{"error":{"message":"prompt is too long"}}' },
          },
        },
      }),
      {},
      HERMES_2026_04,
    );
    expect(result.reason).toBe('context_overflow');
  });

  it('takes the body message and caps it at 500 characters', () => {
    const long = 'x'.repeat(600);
    const result = classifyApiError(
      error({ message: 'short', statusCode: 418, body: { message: long } }),
      {},
      HERMES_2026_07,
    );
    expect(result.message).toHaveLength(500);
    expect(result.reason).toBe('format_error');
  });

  it('treats a 402 with a transient usage-limit signal as a rate limit', () => {
    const result = classifyApiError(
      error({ message: 'Usage limit reached, resets at 5pm', statusCode: 402 }),
      {},
      HERMES_2026_04,
    );
    expect(result).toMatchObject({ reason: 'rate_limit', retryable: true, shouldRotateCredential: true });
  });

  it('keeps a disconnect on a reasoning model a timeout even for a large session', () => {
    const disconnect = error({ message: 'Server disconnected', errorType: 'RemoteProtocolError' });
    const large = { model: 'openai/o3-mini', approxTokens: 190_000, numMessages: 300 };
    expect(classifyApiError(disconnect, large, HERMES_2026_07).reason).toBe('timeout');
    expect(classifyApiError(disconnect, large, HERMES_2026_04).reason).toBe('context_overflow');
  });

  it('does not call a large-window session large on absolute thresholds in 2026-07', () => {
    const disconnect = error({ message: 'peer closed connection', errorType: 'RemoteProtocolError' });
    const session = { approxTokens: 150_000, contextLength: 1_000_000, numMessages: 10 };
    expect(classifyApiError(disconnect, session, HERMES_2026_07).reason).toBe('timeout');
    expect(classifyApiError(disconnect, session, HERMES_2026_04).reason).toBe('context_overflow');
  });

  it('uses the body error code when there is no status', () => {
    const result = classifyApiError(
      error({ message: 'oops', errorType: 'RuntimeError', body: { error: { code: 'insufficient_quota' } } }),
      {},
      HERMES_2026_07,
    );
    expect(result).toMatchObject({ reason: 'billing', retryable: false });
  });

  it('fails fast on the stale-call circuit breaker in 2026-07', () => {
    const breaker = error({
      message: 'Stale provider: 3 consecutive stale attempts, aborting this call',
      errorType: 'RuntimeError',
    });
    expect(classifyApiError(breaker, {}, HERMES_2026_07)).toMatchObject({
      reason: 'timeout',
      retryable: false,
      shouldFallback: true,
    });
  });

  it('falls back to unknown, retryable, for anything unrecognised', () => {
    expect(
      classifyApiError(error({ message: 'hm', errorType: 'ValueError' }), {}, HERMES_2026_04),
    ).toMatchObject({
      reason: 'unknown',
      retryable: true,
      statusCode: null,
    });
  });
});
