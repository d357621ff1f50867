import { describe, expect, it } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import { liveLoopHooks } from '#core/strategies/live-loop-hooks.ts';
import { STRATEGIES } from '#core/strategies/strategy-registry.ts';

describe('the live loop hooks (update from response, session start and end)', () => {
  const hooks = liveLoopHooks(HERMES_2026_07);

  it('take the prompt count of a chat response', () => {
    const state = hooks.updateFromResponse(createCompressorState(), { prompt_tokens: 1234 }, 100_000);
    expect(state.lastPromptTokens).toBe(1234);
  });

  it('keep the breakers across a compaction rotation, clear the cooldown, and start a new session clean', () => {
    const tripped = createCompressorState({
      fallbackStreak: 2,
      cooldownUntilMs: 99,
      lastSummaryError: 'timeout',
      compressionCount: 3,
    });
    expect(hooks.onSessionStart(tripped, 'compression')).toMatchObject({
      fallbackStreak: 2,
      compressionCount: 3,
      cooldownUntilMs: 0,
      lastSummaryError: null,
    });
    expect(hooks.onSessionStart(tripped, 'resume')).toBe(tripped);
    expect(hooks.onSessionStart(tripped, 'new')).toEqual(createCompressorState());
  });

  it('forget per-session summary state at a session end, keeping the count of compactions', () => {
    const state = createCompressorState({ previousSummary: 'x', ineffectiveCount: 2, compressionCount: 4 });
    expect(hooks.onSessionEnd(state)).toEqual(createCompressorState({ compressionCount: 4 }));
  });

  it('are every strategy’s, under the Hermes generation that hosts it', () => {
    const reading = { prompt_tokens: 5_000 };
    for (const strategy of STRATEGIES) {
      const expected = liveLoopHooks(strategy.preset).updateFromResponse(
        createCompressorState(),
        reading,
        10_000,
      );
      expect(strategy.updateFromResponse(createCompressorState(), reading, 10_000), strategy.name).toEqual(
        expected,
      );
    }
    // The two generations differ: 2026-04 has no anti-thrash verdict on the first reading.
    expect(STRATEGIES.map((strategy) => strategy.preset)).toEqual(
      expect.arrayContaining([HERMES_2026_04, HERMES_2026_07]),
    );
  });
});
