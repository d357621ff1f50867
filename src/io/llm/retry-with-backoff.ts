import { computeBackoffDelayMs } from '../../core/providers/compute-backoff-delay.ts';
import type { FailoverReason } from '../../core/errors/failover-reason.ts';
import { isLlmError } from './llm-error.ts';

/** Tries per call, the first one included. */
export const MAX_ATTEMPTS = 3;

/** The transient failure classes worth the same request again after a wait. */
export const RETRYABLE_REASONS: ReadonlySet<FailoverReason> = new Set([
  'rate_limit',
  'overloaded',
  'server_error',
  'timeout',
]);

export interface RetryEvent {
  /** The attempt that failed (1-based). */
  attempt: number;
  delayMs: number;
  error: unknown;
}

export interface RetryWithBackoffOptions {
  /** A number in [0, 1) per call: `Math.random` in the app, fixed in tests. */
  random: () => number;
  /** Waits, rejecting when the signal aborts (`abortableSleep` in the app, instant in tests). */
  sleep: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  maxAttempts?: number;
  onRetry?: (event: RetryEvent) => void;
  /** Overrides which errors are retried. */
  isRetryable?: (error: unknown) => boolean;
}

/**
 * Runs `operation` until it succeeds, fails with something not worth retrying, or uses up
 * `maxAttempts`. Waits honour the provider's `retry-after`, else back off exponentially with
 * jitter. Cancelling the signal stops at once, during a wait too.
 */
export async function retryWithBackoff<T>(
  operation: (attempt: number) => Promise<T>,
  options: RetryWithBackoffOptions,
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  const isRetryable = options.isRetryable ?? isTransientLlmError;
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    try {
      return await operation(attempt);
    } catch (error) {
      if (attempt >= maxAttempts || options.signal?.aborted || !isRetryable(error)) throw error;
      const delayMs = computeBackoffDelayMs({
        retryNumber: attempt,
        retryAfterMs: isLlmError(error) ? error.retryAfterMs : undefined,
        random: options.random(),
      });
      options.onRetry?.({ attempt, delayMs, error });
      await options.sleep(delayMs, options.signal);
    }
  }
}

/** Rate limits, overload, server errors and timeouts (dropped connections classify as timeouts). */
export function isTransientLlmError(error: unknown): boolean {
  if (!isLlmError(error) || error.kind === 'aborted' || error.kind === 'configuration') return false;
  if (error.kind === 'offline') return false;
  if (error.classification) return RETRYABLE_REASONS.has(error.classification.reason);
  return error.isRetryable;
}

/** `setTimeout` as a promise that rejects with the signal's reason when it aborts. */
export function abortableSleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
