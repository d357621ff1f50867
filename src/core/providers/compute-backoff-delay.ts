/** First retry waits about this long; each further retry doubles it. */
export const BASE_BACKOFF_DELAY_MS = 1_000;
/** The exponential part never grows beyond this. */
export const MAX_BACKOFF_DELAY_MS = 30_000;
/** A provider's `retry-after` is honoured up to this; longer waits are the user's call, not a spinner's. */
export const MAX_RETRY_AFTER_MS = 60_000;

export interface BackoffInput {
  /** 1 for the wait before the first retry, 2 before the second, … */
  retryNumber: number;
  /** From the provider's `retry-after` headers, when given. */
  retryAfterMs?: number | undefined;
  /** A number in [0, 1), injected (core draws no randomness of its own). */
  random: number;
}

/**
 * The wait before a retry: the provider's `retry-after` when it gave one (capped), else
 * exponential backoff with "equal jitter" (half fixed, half random), so clients that failed
 * together do not retry together.
 *
 * @see https://aws.amazon.com/blogs/architecture/exponential-backoff-and-jitter/
 */
export function computeBackoffDelayMs(input: BackoffInput): number {
  if (input.retryAfterMs !== undefined && Number.isFinite(input.retryAfterMs)) {
    return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, Math.round(input.retryAfterMs)));
  }
  const exponent = Math.max(0, input.retryNumber - 1);
  const ceiling = Math.min(MAX_BACKOFF_DELAY_MS, BASE_BACKOFF_DELAY_MS * 2 ** exponent);
  const random = Math.min(Math.max(input.random, 0), 1);
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}
