import { describe, expect, it } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { hygieneInputMessages } from '#core/loop/hygiene-input-messages.ts';
import { postTurnCheckTokens } from '#core/loop/post-turn-check-tokens.ts';
import {
  blocksFurtherPreApiPasses,
  shouldCompressBeforeApiCall,
} from '#core/loop/pre-api-compression-check.ts';
import { resetCalibration } from '#core/loop/reset-calibration.ts';
import type { Message } from '#core/transcript/message.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

describe('postTurnCheckTokens', () => {
  it('uses the real prompt count, never completion tokens', () => {
    const state = createCompressorState({ lastPromptTokens: 90_000, lastCompletionTokens: 20_000 });
    expect(postTurnCheckTokens(state, () => 1)).toBe(90_000);
  });

  it('is 0 right after a compaction (the -1 sentinel) and rough when no usage came back', () => {
    expect(postTurnCheckTokens(createCompressorState({ lastPromptTokens: -1 }), () => 5)).toBe(0);
    expect(postTurnCheckTokens(createCompressorState({ lastPromptTokens: 0 }), () => 5)).toBe(5);
  });
});

describe('shouldCompressBeforeApiCall', () => {
  const input = {
    compressionEnabled: true,
    messageCount: 10,
    compressionAttempts: 0,
    preflightBlocked: false,
    preflightDeferred: false,
    pressureTokens: 120_000,
    thresholdTokens: 100_000,
    state: createCompressorState(),
    nowMs: 0,
  };

  it('fires over the threshold within the per-turn budget of three', () => {
    expect(shouldCompressBeforeApiCall(input, HERMES_2026_07)).toBe(true);
    expect(shouldCompressBeforeApiCall({ ...input, compressionAttempts: 3 }, HERMES_2026_07)).toBe(false);
    expect(shouldCompressBeforeApiCall({ ...input, pressureTokens: 99_999 }, HERMES_2026_07)).toBe(false);
  });

  it('stays off when blocked, deferred, disabled or with a single message', () => {
    expect(shouldCompressBeforeApiCall({ ...input, preflightBlocked: true }, HERMES_2026_07)).toBe(false);
    expect(shouldCompressBeforeApiCall({ ...input, preflightDeferred: true }, HERMES_2026_07)).toBe(false);
    expect(shouldCompressBeforeApiCall({ ...input, compressionEnabled: false }, HERMES_2026_07)).toBe(false);
    expect(shouldCompressBeforeApiCall({ ...input, messageCount: 1 }, HERMES_2026_07)).toBe(false);
  });

  it('blocks further passes when a pass cut 5% or less and the pressure is still over', () => {
    expect(blocksFurtherPreApiPasses(120_000, 115_000, 100_000)).toBe(true);
    expect(blocksFurtherPreApiPasses(120_000, 110_000, 100_000)).toBe(false);
    expect(blocksFurtherPreApiPasses(120_000, 119_000, 130_000)).toBe(false);
  });
});

describe('hygieneInputMessages', () => {
  const history: Message[] = [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'read the file' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'file body' },
    { role: 'assistant', content: 'done', reasoning: 'thought' },
  ];

  it('2026-04 keeps user/assistant text only, as {role, content}', () => {
    expect(hygieneInputMessages(history, HERMES_2026_04)).toEqual([
      { role: 'user', content: 'read the file' },
      { role: 'assistant', content: 'done' },
    ]);
  });

  it('2026-07 keeps the whole transcript without system messages', () => {
    expect(hygieneInputMessages(history, HERMES_2026_07)).toEqual(history.slice(1));
  });
});

describe('resetCalibration', () => {
  it('forgets readings of the old window but keeps the conversation facts', () => {
    const state = createCompressorState({
      lastPromptTokens: 5000,
      lastRealPromptTokens: 5000,
      ineffectiveCount: 1,
      compressionCount: 2,
      previousSummary: 'summary',
      fallbackStreak: 1,
    });
    expect(resetCalibration(state)).toMatchObject({
      lastPromptTokens: 0,
      lastRealPromptTokens: 0,
      ineffectiveCount: 0,
      compressionCount: 2,
      previousSummary: 'summary',
      fallbackStreak: 1,
    });
  });
});
