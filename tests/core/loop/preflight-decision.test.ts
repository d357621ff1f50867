import { describe, expect, it } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { decideAfterPreflightPass, decidePreflightStart } from '#core/loop/preflight-decision.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const start = {
  compressionEnabled: true,
  messageCount: 30,
  roughMessageTokens: () => 0,
  requestTokens: 120_000,
  protectFirstN: 3,
  protectLastN: 20,
  thresholdTokens: 100_000,
  state: createCompressorState(),
  nowMs: 0,
};

describe('decidePreflightStart', () => {
  it('2026-04: message-count gate, then the estimate against the threshold', () => {
    expect(decidePreflightStart(start, HERMES_2026_04).compress).toBe(true);
    expect(decidePreflightStart({ ...start, requestTokens: 99_999 }, HERMES_2026_04).compress).toBe(false);
    // 24 = 3 + 20 + 1 messages is not enough, however large they are.
    expect(decidePreflightStart({ ...start, messageCount: 24 }, HERMES_2026_04).compress).toBe(false);
    expect(decidePreflightStart({ ...start, compressionEnabled: false }, HERMES_2026_04).compress).toBe(
      false,
    );
  });

  it('2026-04 ignores breakers and cooldowns', () => {
    const blocked = createCompressorState({ cooldownUntilMs: 10_000, fallbackStreak: 5 });
    expect(decidePreflightStart({ ...start, state: blocked }, HERMES_2026_04).compress).toBe(true);
  });

  it('2026-07: a few huge messages pass the gate and the rough estimate floors last_prompt_tokens', () => {
    const verdict = decidePreflightStart(
      { ...start, messageCount: 3, roughMessageTokens: () => 110_000 },
      HERMES_2026_07,
    );
    expect(verdict.compress).toBe(true);
    expect(verdict.state.lastPromptTokens).toBe(120_000);
  });

  it('2026-07: defers once right after a compaction, and respects the cooldown', () => {
    const awaiting = createCompressorState({ awaitingRealUsageAfterCompression: true, lastPromptTokens: -1 });
    expect(decidePreflightStart({ ...start, state: awaiting }, HERMES_2026_07)).toMatchObject({
      compress: false,
      deferred: true,
    });
    const cooling = createCompressorState({ cooldownUntilMs: 5000 });
    expect(decidePreflightStart({ ...start, state: cooling, nowMs: 1000 }, HERMES_2026_07).compress).toBe(
      false,
    );
  });

  it('never overwrites the -1 sentinel', () => {
    const sentinel = createCompressorState({ lastPromptTokens: -1 });
    expect(decidePreflightStart({ ...start, state: sentinel }, HERMES_2026_07).state.lastPromptTokens).toBe(
      -1,
    );
  });
});

describe('decideAfterPreflightPass', () => {
  const pass = {
    pass: 1,
    before: { messageCount: 40, tokens: 150_000 },
    after: { messageCount: 20, tokens: 120_000 },
    thresholdTokens: 100_000,
    stillShouldCompress: true,
  };

  it('2026-04 continues while rows drop and the request is still over, up to three passes', () => {
    expect(decideAfterPreflightPass(pass, HERMES_2026_04)).toBe('continue');
    expect(decideAfterPreflightPass({ ...pass, pass: 3 }, HERMES_2026_04)).toBe('done');
    expect(
      decideAfterPreflightPass({ ...pass, after: { messageCount: 40, tokens: 120_000 } }, HERMES_2026_04),
    ).toBe('done');
    expect(
      decideAfterPreflightPass({ ...pass, after: { messageCount: 20, tokens: 90_000 } }, HERMES_2026_04),
    ).toBe('done');
  });

  it('2026-07 blocks on no progress and on a pass that cut 5% or less', () => {
    expect(decideAfterPreflightPass(pass, HERMES_2026_07)).toBe('continue');
    expect(
      decideAfterPreflightPass({ ...pass, after: { messageCount: 40, tokens: 149_000 } }, HERMES_2026_07),
    ).toBe('blocked');
    expect(
      decideAfterPreflightPass({ ...pass, after: { messageCount: 39, tokens: 145_000 } }, HERMES_2026_07),
    ).toBe('blocked');
    expect(decideAfterPreflightPass({ ...pass, stillShouldCompress: false }, HERMES_2026_07)).toBe('done');
  });
});
