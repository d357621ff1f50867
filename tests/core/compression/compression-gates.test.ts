import { describe, expect, it } from 'vitest';
import {
  markCompactionBoundary,
  recordCompletedCompaction,
  shouldCompress,
  shouldDeferPreflightToRealUsage,
  updateFromResponse,
} from '#core/compression/compression-gates.ts';
import { createCompressorState, recordFailureCooldown } from '#core/compression/compressor-state.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import type { Preset } from '#core/presets/preset.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const THRESHOLD = 150_000;
const at = (preset: Preset, nowMs = 0) => ({
  thresholdTokens: THRESHOLD,
  preset,
  nowMs,
});

describe('shouldCompress', () => {
  it('is false below the threshold and true at it', () => {
    const state = createCompressorState();
    expect(shouldCompress(state, at(HERMES_2026_07), THRESHOLD - 1).compress).toBe(false);
    expect(shouldCompress(state, at(HERMES_2026_07), THRESHOLD).compress).toBe(true);
  });

  it('defaults to the last provider prompt count', () => {
    expect(
      shouldCompress(createCompressorState({ lastPromptTokens: THRESHOLD }), at(HERMES_2026_07)).compress,
    ).toBe(true);
  });

  it('blocks on an active cooldown in 2026-07 only, until the clock passes it', () => {
    const state = recordFailureCooldown(createCompressorState(), 60, 'timed out', 1000);
    expect(shouldCompress(state, at(HERMES_2026_07, 1000), THRESHOLD)).toEqual({
      compress: false,
      blockedBy: 'cooldown',
    });
    expect(shouldCompress(state, at(HERMES_2026_07, 61_000), THRESHOLD).compress).toBe(true);
    expect(shouldCompress(state, at(HERMES_2026_04, 1000), THRESHOLD).compress).toBe(true);
  });

  it('blocks on two ineffective strikes in both generations and on the fallback streak in 2026-07', () => {
    expect(
      shouldCompress(createCompressorState({ ineffectiveCount: 2 }), at(HERMES_2026_04), THRESHOLD).blockedBy,
    ).toBe('ineffective');
    const streak = createCompressorState({ fallbackStreak: 2 });
    expect(shouldCompress(streak, at(HERMES_2026_07), THRESHOLD).blockedBy).toBe('fallback-streak');
    expect(shouldCompress(streak, at(HERMES_2026_04), THRESHOLD).compress).toBe(true);
  });
});

describe('updateFromResponse', () => {
  it('stores the counts and derives the total when missing', () => {
    const state = updateFromResponse(
      createCompressorState(),
      { prompt_tokens: 10, completion_tokens: 5 },
      THRESHOLD,
      HERMES_2026_04,
    );
    expect([state.lastPromptTokens, state.lastCompletionTokens, state.lastTotalTokens]).toEqual([10, 5, 15]);
  });

  it('judges a completed compaction by the next real reading (2026-07)', () => {
    const armed = recordCompletedCompaction(createCompressorState(), false);
    expect(
      updateFromResponse(armed, { prompt_tokens: 160_000 }, THRESHOLD, HERMES_2026_07).ineffectiveCount,
    ).toBe(1);
    const fits = updateFromResponse(
      { ...armed, ineffectiveCount: 1 },
      { prompt_tokens: 100 },
      THRESHOLD,
      HERMES_2026_07,
    );
    expect(fits.ineffectiveCount).toBe(0);
    expect(fits.verifyCompactionClearedThreshold).toBe(false);
  });

  it('does not count strikes in 2026-04, where compress() owns the count', () => {
    const armed = recordCompletedCompaction(createCompressorState({ ineffectiveCount: 1 }), false);
    expect(
      updateFromResponse(armed, { prompt_tokens: 160_000 }, THRESHOLD, HERMES_2026_04).ineffectiveCount,
    ).toBe(1);
  });
});

describe('recordCompletedCompaction', () => {
  it('grows the fallback streak on fallback summaries and resets it on a healthy one', () => {
    const once = recordCompletedCompaction(createCompressorState(), true);
    expect(recordCompletedCompaction(once, true).fallbackStreak).toBe(2);
    expect(recordCompletedCompaction(once, false).fallbackStreak).toBe(0);
  });
});

describe('markCompactionBoundary', () => {
  it('sets the −1 sentinel and awaits real usage in 2026-07', () => {
    const state = markCompactionBoundary(
      createCompressorState({ lastPromptTokens: 170_000 }),
      90_000,
      HERMES_2026_07,
    );
    expect(state).toMatchObject({
      lastPromptTokens: -1,
      lastCompressionRoughTokens: 90_000,
      awaitingRealUsageAfterCompression: true,
    });
  });

  it('stores the rough estimate as the last prompt count in 2026-04', () => {
    expect(markCompactionBoundary(createCompressorState(), 90_000, HERMES_2026_04).lastPromptTokens).toBe(
      90_000,
    );
  });
});

describe('shouldDeferPreflightToRealUsage', () => {
  it('never defers in 2026-04', () => {
    const state = createCompressorState({ awaitingRealUsageAfterCompression: true });
    expect(shouldDeferPreflightToRealUsage(state, 200_000, THRESHOLD, HERMES_2026_04).defer).toBe(false);
  });

  it('ratchets the baseline with each deferral', () => {
    const fit = createCompressorState({
      lastRealPromptTokens: 90_000,
      lastRoughTokensWhenRealPromptFit: 149_000,
    });
    const first = shouldDeferPreflightToRealUsage(fit, 155_000, THRESHOLD, HERMES_2026_07);
    expect(first.defer).toBe(true);
    expect(first.state.lastRoughTokensWhenRealPromptFit).toBe(155_000);
    expect(shouldDeferPreflightToRealUsage(first.state, 163_000, THRESHOLD, HERMES_2026_07).defer).toBe(
      false,
    );
  });
});
