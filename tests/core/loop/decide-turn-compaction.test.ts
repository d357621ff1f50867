import { describe, expect, it } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { decideTurnCompaction, type TurnCompactionInput } from '#core/loop/decide-turn-compaction.ts';
import { requestPressureTokens } from '#core/loop/pre-api-compression-check.ts';
import { requestMessages } from '#core/loop/request-messages.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import { estimateMessagesTokensRough } from '#core/tokens/estimate-messages-tokens-rough.ts';
import { estimateRequestTokensRough } from '#core/tokens/estimate-request-tokens-rough.ts';
import { estimateToolsTokensRough } from '#core/tokens/estimate-tools-tokens-rough.ts';
import { BROWSER_TOOL_SCHEMAS } from '#core/tools/browser-tool-schemas.ts';
import type { Message } from '#core/transcript/message.ts';

const SYSTEM_PROMPT = 'You are a careful reviewer.';

/** Forty alternating turns of `size` characters each (past the preflight's message-count gate). */
function conversation(size: number): Message[] {
  return Array.from({ length: 40 }, (_, index) => ({
    role: index % 2 === 0 ? 'user' : 'assistant',
    content: `${index}:${'w'.repeat(size)}`,
  }));
}

function input(overrides: Partial<TurnCompactionInput> = {}): TurnCompactionInput {
  return {
    messages: conversation(400),
    systemPrompt: SYSTEM_PROMPT,
    tools: BROWSER_TOOL_SCHEMAS,
    config: { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 200_000 },
    thresholdTokens: 100_000,
    state: createCompressorState(),
    lastSessionPromptTokens: 0,
    nowMs: 0,
    ...overrides,
  };
}

describe('requestMessages', () => {
  it('puts the system prompt first as a message, and nothing when there is none', () => {
    const messages = conversation(3);
    expect(requestMessages(SYSTEM_PROMPT, messages)).toEqual([
      { role: 'system', content: SYSTEM_PROMPT },
      ...messages,
    ]);
    expect(requestMessages('', messages)).toEqual(messages);
  });
});

describe('decideTurnCompaction', () => {
  it('counts the request as the pre-request check does: system message + messages, then tool schemas', () => {
    const decision = decideTurnCompaction(input(), HERMES_2026_04);
    const apiMessages = [{ role: 'system', content: SYSTEM_PROMPT }, ...conversation(400)];
    expect(decision.requestTokens).toBe(
      estimateMessagesTokensRough(apiMessages, HERMES_2026_04) +
        estimateToolsTokensRough(BROWSER_TOOL_SCHEMAS, HERMES_2026_04),
    );
    expect(decision.requestTokens).toBe(
      requestPressureTokens(apiMessages, BROWSER_TOOL_SCHEMAS, HERMES_2026_04),
    );
    expect(decision.preflightTokens).toBe(
      estimateRequestTokensRough(conversation(400), SYSTEM_PROMPT, BROWSER_TOOL_SCHEMAS, HERMES_2026_04),
    );
    expect(decision.firedBy).toBeNull();
  });

  it('fires by the pre-request check when only its count reaches the trigger (the system message repr is longer)', () => {
    const probe = decideTurnCompaction(input(), HERMES_2026_07);
    // The pre-request count includes `{'role': 'system', 'content': …}`, the preflight only the text.
    expect(probe.requestTokens).toBeGreaterThan(probe.preflightTokens);
    const decision = decideTurnCompaction(input({ thresholdTokens: probe.requestTokens }), HERMES_2026_07);
    expect(decision.firedBy).toBe('pre-request');
    const preflight = decideTurnCompaction(input({ thresholdTokens: probe.preflightTokens }), HERMES_2026_07);
    expect(preflight.firedBy).toBe('preflight');
    const below = decideTurnCompaction(input({ thresholdTokens: probe.requestTokens + 1 }), HERMES_2026_07);
    expect(below.firedBy).toBeNull();
  });

  it('fires by hygiene on the provider’s reported count at 85% of the window, below the trigger', () => {
    const decision = decideTurnCompaction(
      input({ config: { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 32_000 }, thresholdTokens: 64_000 }),
      HERMES_2026_04,
    );
    expect(decision.firedBy).toBeNull();
    const reported = decideTurnCompaction(
      input({
        config: { ...DEFAULT_COMPRESSION_CONFIG, contextLength: 32_000 },
        thresholdTokens: 64_000,
        lastSessionPromptTokens: 27_200,
      }),
      HERMES_2026_04,
    );
    expect(reported.firedBy).toBe('hygiene');
    expect(reported.hygiene).toMatchObject({
      tokenSource: 'actual',
      tokensUsed: 27_200,
      thresholdTokens: 27_200,
    });
  });

  it('2026-07 waits for the provider’s count when its last one fitted and the estimate grew little', () => {
    const probe = decideTurnCompaction(input(), HERMES_2026_07);
    const threshold = probe.preflightTokens;
    const state = createCompressorState({
      lastPromptTokens: threshold - 500,
      lastRealPromptTokens: threshold - 500,
      lastRoughTokensWhenRealPromptFit: threshold - 1_000,
    });
    const waiting = decideTurnCompaction(input({ thresholdTokens: threshold, state }), HERMES_2026_07);
    expect(waiting).toMatchObject({ firedBy: null, deferred: true });
    // 2026-04 never defers: the same state compacts.
    expect(decideTurnCompaction(input({ thresholdTokens: threshold, state }), HERMES_2026_04).firedBy).toBe(
      'preflight',
    );
  });

  it('does nothing with compression switched off', () => {
    const decision = decideTurnCompaction(
      input({ thresholdTokens: 1, config: { ...DEFAULT_COMPRESSION_CONFIG, enabled: false } }),
      HERMES_2026_07,
    );
    expect(decision).toMatchObject({ firedBy: null, deferred: false });
  });
});
