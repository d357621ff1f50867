import { describe, expect, it } from 'vitest';
import { compress } from '#core/compression/compress.ts';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { createOfflineSummarizer } from '#core/compression/offline-summarizer.ts';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { keptExchangesStart, keptExchangesTailBudget } from '#core/loop/kept-exchanges-tail-budget.ts';
import { messageText, type Message } from '#core/transcript/message.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const conversation: Message[] = Array.from({ length: 12 }, (_, index) => [
  { role: 'user', content: `question ${index} ${'detail '.repeat(40)}` },
  { role: 'assistant', content: `answer ${index} ${'explanation '.repeat(60)}` },
]).flat();

describe('keptExchangesTailBudget', () => {
  it('finds where the last N exchanges start', () => {
    expect(keptExchangesStart(conversation, 2, HERMES_2026_07)).toBe(20);
    expect(keptExchangesStart(conversation, 50, HERMES_2026_07)).toBe(0);
  });

  it('makes compress() keep at least those exchanges verbatim', async () => {
    const budget = keptExchangesTailBudget(conversation, 3, HERMES_2026_07);
    const result = await compress(
      conversation,
      {
        config: { ...DEFAULT_COMPRESSION_CONFIG, protectLastN: 2 },
        preset: HERMES_2026_07,
        state: createCompressorState(),
        force: true,
        tailTokenBudgetOverride: budget,
      },
      { summarizer: createOfflineSummarizer(), now: () => 0 },
    );
    expect(result.skipped).toBeNull();
    const texts = result.messages.map((message) => messageText(message));
    for (const index of [9, 10, 11])
      expect(texts.some((text) => text.startsWith(`question ${index} `))).toBe(true);
    expect(texts.some((text) => text.startsWith('question 2 '))).toBe(false);
  });
});
