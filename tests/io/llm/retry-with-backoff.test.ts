import { describe, expect, it, vi } from 'vitest';
import type { ClassifiedError } from '#core/errors/classified-error.ts';
import type { FailoverReason } from '#core/errors/failover-reason.ts';
import { LlmError } from '#io/llm/llm-error.ts';
import {
  abortableSleep,
  isTransientLlmError,
  MAX_ATTEMPTS,
  retryWithBackoff,
} from '#io/llm/retry-with-backoff.ts';

function llmError(reason: FailoverReason, retryAfterMs?: number, retryable = true): LlmError {
  const classification: ClassifiedError = {
    reason,
    statusCode: 500,
    message: reason,
    retryable,
    shouldCompress: false,
    shouldRotateCredential: false,
    shouldFallback: false,
  };
  return new LlmError({
    kind: 'http',
    provider: 'anthropic',
    message: reason,
    status: 500,
    retryAfterMs,
    classification,
  });
}

const instantSleep = async (): Promise<void> => {};

describe('retryWithBackoff', () => {
  it('retries transient failures and returns the first success', async () => {
    const operation = vi
      .fn<(attempt: number) => Promise<string>>()
      .mockRejectedValueOnce(llmError('overloaded'))
      .mockResolvedValue('done');
    await expect(retryWithBackoff(operation, { random: () => 0, sleep: instantSleep })).resolves.toBe('done');
    expect(operation.mock.calls.map(([attempt]) => attempt)).toEqual([1, 2]);
  });

  it('waits with exponential backoff and jitter, or the retry-after when given', async () => {
    const sleep = vi.fn<(milliseconds: number) => Promise<void>>(instantSleep);
    const operation = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(llmError('server_error'))
      .mockRejectedValueOnce(llmError('rate_limit', 7000))
      .mockResolvedValue('ok');
    await retryWithBackoff(operation, { random: () => 1, sleep, maxAttempts: 5 });
    expect(sleep.mock.calls.map(([delay]) => delay)).toEqual([1000, 7000]);
  });

  it('gives up after the maximum number of attempts with the last error', async () => {
    const error = llmError('timeout');
    const operation = vi.fn(async () => {
      throw error;
    });
    await expect(retryWithBackoff(operation, { random: () => 0, sleep: instantSleep })).rejects.toBe(error);
    expect(operation).toHaveBeenCalledTimes(MAX_ATTEMPTS);
  });

  it('does not retry errors outside the transient classes', async () => {
    for (const error of [
      llmError('auth', undefined, false),
      llmError('context_overflow'),
      new Error('bug'),
    ]) {
      const operation = vi.fn(async () => {
        throw error;
      });
      await expect(retryWithBackoff(operation, { random: () => 0, sleep: instantSleep })).rejects.toBe(error);
      expect(operation).toHaveBeenCalledTimes(1);
    }
  });

  it('stops during the wait when cancelled', async () => {
    const controller = new AbortController();
    const operation = vi.fn(async () => {
      throw llmError('overloaded', 10_000);
    });
    const pending = retryWithBackoff(operation, {
      random: () => 0,
      sleep: abortableSleep,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('user cancelled')), 20);
    await expect(pending).rejects.toThrow('user cancelled');
    expect(operation).toHaveBeenCalledTimes(1);
  });

  it('reports each retry', async () => {
    const onRetry = vi.fn();
    const first = llmError('overloaded');
    await retryWithBackoff(vi.fn<() => Promise<number>>().mockRejectedValueOnce(first).mockResolvedValue(1), {
      random: () => 0,
      sleep: instantSleep,
      onRetry,
    });
    expect(onRetry).toHaveBeenCalledExactlyOnceWith({ attempt: 1, delayMs: 500, error: first });
  });
});

describe('isTransientLlmError', () => {
  it('falls back to the status and kind when there is no classification', () => {
    expect(
      isTransientLlmError(
        new LlmError({ kind: 'http', provider: 'openai-compatible', message: '', status: 503 }),
      ),
    ).toBe(true);
    expect(
      isTransientLlmError(
        new LlmError({ kind: 'http', provider: 'openai-compatible', message: '', status: 400 }),
      ),
    ).toBe(false);
    expect(
      isTransientLlmError(new LlmError({ kind: 'aborted', provider: 'openai-compatible', message: '' })),
    ).toBe(false);
  });
});
