import { describe, expect, it } from 'vitest';
import {
  classifySummaryFailure,
  failureCooldownSeconds,
  summaryErrorText,
} from '#core/compression/classify-summary-failure.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

describe('classifySummaryFailure', () => {
  it('recognises the no-provider error, and any RuntimeError in 2026-04', () => {
    expect(
      classifySummaryFailure(new Error('No LLM provider configured for task'), HERMES_2026_07).noProvider,
    ).toBe(true);
    const runtime = Object.assign(new Error('upstream exploded'), { name: 'RuntimeError' });
    expect(classifySummaryFailure(runtime, HERMES_2026_04).noProvider).toBe(true);
    expect(classifySummaryFailure(runtime, HERMES_2026_07).noProvider).toBe(false);
  });

  it('flags access and quota failures but never rate limits', () => {
    expect(classifySummaryFailure({ message: 'bad key', status: 401 }, HERMES_2026_07).accessOrQuota).toBe(
      true,
    );
    expect(classifySummaryFailure({ message: 'insufficient_quota' }, HERMES_2026_07).accessOrQuota).toBe(
      true,
    );
    expect(
      classifySummaryFailure({ message: 'quota exceeded', status: 429 }, HERMES_2026_07).accessOrQuota,
    ).toBe(false);
  });

  it('classifies timeouts, missing models, JSON errors and dropped connections', () => {
    const failure = (message: string, status?: number) =>
      classifySummaryFailure({ message, status }, HERMES_2026_07);
    expect(failure('Request timed out').timeout).toBe(true);
    expect(failure('gateway', 504).timeout).toBe(true);
    expect(failure('model_not_found').modelNotFound).toBe(true);
    expect(failure('Expecting value: line 1 column 1').jsonDecode).toBe(true);
    expect(failure('peer closed connection without sending complete message body').streamClosed).toBe(true);
  });
});

describe('failureCooldownSeconds', () => {
  const failure = (message: string) => classifySummaryFailure({ message }, HERMES_2026_07);

  it('climbs the 60 → 300 → 900 s ladder for consecutive timeouts (2026-07)', () => {
    expect([1, 2, 3, 4].map((n) => failureCooldownSeconds(failure('timeout'), n, HERMES_2026_07))).toEqual([
      60, 300, 900, 900,
    ]);
  });

  it('uses 30 s for JSON errors and 60 s otherwise; 2026-04 always 60 s', () => {
    expect(failureCooldownSeconds(failure('expecting value'), 0, HERMES_2026_07)).toBe(30);
    expect(failureCooldownSeconds(failure('boom'), 0, HERMES_2026_07)).toBe(60);
    expect(failureCooldownSeconds(failure('timeout'), 3, HERMES_2026_04)).toBe(60);
  });
});

describe('summaryErrorText', () => {
  it('cuts long messages to 217 characters plus an ellipsis', () => {
    expect(summaryErrorText({ message: 'e'.repeat(300) })).toBe(`${'e'.repeat(217)}...`);
  });

  it('falls back to the error name for an empty message', () => {
    expect(summaryErrorText({ name: 'TimeoutError', message: ' ' })).toBe('TimeoutError');
  });
});
