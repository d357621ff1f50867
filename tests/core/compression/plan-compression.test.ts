import { describe, expect, it } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { planCompression } from '#core/compression/plan-compression.ts';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { assistant, conversation, system, toolCall, toolResult, user } from './message-builders.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const config = { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 200_000 };

describe('planCompression', () => {
  it('says below-threshold for a short conversation', () => {
    const plan = planCompression([system(), ...conversation(10)], {
      nowMs: 0,
      config,
      preset: HERMES_2026_07,
      state: createCompressorState(),
    });
    expect(plan).toMatchObject({ wouldCompress: false, reason: 'below-threshold', tokenSource: 'rough' });
    expect(plan.boundaries).not.toBeNull();
  });

  it('says hermes-raised under 2026-04 where its one-liner raises on an old result, below the threshold check', () => {
    const messages = [
      system(),
      user('start'),
      assistant('', [{ ...toolCall('c1'), function: { name: 'delegate_task', arguments: '{"goal": 3.5}' } }]),
      toolResult('c1', 'done\n'.repeat(100)),
      ...conversation(40),
    ];
    const plan = (preset: typeof HERMES_2026_04, currentTokens: number) =>
      planCompression(messages, {
        nowMs: 0,
        config: { ...config, protectLastN: 4 },
        preset,
        state: createCompressorState(),
        currentTokens,
        tailTokenBudgetOverride: 500,
      });
    expect(plan(HERMES_2026_04, 160_000)).toMatchObject({
      wouldCompress: false,
      reason: 'hermes-raised',
      raised: { exception: "TypeError: object of type 'float' has no len()", index: 3 },
    });
    // Below the threshold compress() is never called, so nothing raises.
    expect(plan(HERMES_2026_04, 10).reason).toBe('below-threshold');
    expect(plan(HERMES_2026_07, 160_000)).toMatchObject({
      wouldCompress: true,
      reason: 'ready',
      raised: null,
    });
  });

  it('is ready over the threshold with a compressible middle', () => {
    const plan = planCompression([system(), ...conversation(40)], {
      nowMs: 0,
      config,
      preset: HERMES_2026_07,
      state: createCompressorState(),
      currentTokens: 160_000,
      tailTokenBudgetOverride: 500,
    });
    expect(plan).toMatchObject({
      wouldCompress: true,
      reason: 'ready',
      tokens: 160_000,
      tokenSource: 'current',
    });
    expect(plan.boundaries!.headEnd).toBeLessThan(plan.boundaries!.tailStart);
  });

  it('names the breaker that blocks an over-threshold plan', () => {
    const plan = planCompression([system(), ...conversation(40)], {
      nowMs: 0,
      config,
      preset: HERMES_2026_07,
      state: createCompressorState({ fallbackStreak: 2 }),
      currentTokens: 160_000,
    });
    expect(plan.reason).toBe('fallback-streak');
  });

  it('judges the failure cooldown only when given a clock', () => {
    const options = {
      config,
      preset: HERMES_2026_07,
      state: createCompressorState({ cooldownUntilMs: 5000 }),
      currentTokens: 160_000,
      tailTokenBudgetOverride: 500,
    };
    const messages = [system(), ...conversation(40)];
    expect(planCompression(messages, { ...options, nowMs: 1000 }).reason).toBe('cooldown');
    expect(planCompression(messages, { ...options, nowMs: 6000 }).reason).toBe('ready');
    expect(planCompression(messages, options).reason).toBe('ready');
  });

  it('reports too few messages', () => {
    const plan = planCompression(conversation(4), {
      nowMs: 0,
      config,
      preset: HERMES_2026_04,
      state: createCompressorState(),
      currentTokens: 160_000,
    });
    expect(plan).toMatchObject({ reason: 'too-few-messages', boundaries: null });
  });
});
