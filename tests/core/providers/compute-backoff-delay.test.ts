import { describe, expect, it } from 'vitest';
import {
  computeBackoffDelayMs,
  MAX_BACKOFF_DELAY_MS,
  MAX_RETRY_AFTER_MS,
} from '#core/providers/compute-backoff-delay.ts';

describe('computeBackoffDelayMs', () => {
  it('doubles the ceiling per retry with equal jitter', () => {
    expect(computeBackoffDelayMs({ retryNumber: 1, random: 0 })).toBe(500);
    expect(computeBackoffDelayMs({ retryNumber: 1, random: 0.999999 })).toBe(1000);
    expect(computeBackoffDelayMs({ retryNumber: 3, random: 0.5 })).toBe(3000);
  });

  it('never exceeds the maximum', () => {
    expect(computeBackoffDelayMs({ retryNumber: 30, random: 1 })).toBe(MAX_BACKOFF_DELAY_MS);
  });

  it('honours retry-after, capped', () => {
    expect(computeBackoffDelayMs({ retryNumber: 1, retryAfterMs: 4200, random: 0.9 })).toBe(4200);
    expect(computeBackoffDelayMs({ retryNumber: 1, retryAfterMs: 3_600_000, random: 0 })).toBe(
      MAX_RETRY_AFTER_MS,
    );
  });
});
