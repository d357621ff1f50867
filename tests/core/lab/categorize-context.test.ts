import { describe, expect, it } from 'vitest';
import { categorizeContext } from '#core/lab/categorize-context.ts';
import type { ContextMessageClass } from '#core/lab/classify-context-messages.ts';

const entry = (
  kind: ContextMessageClass['kind'],
  tool = '',
  reasoningChars = 0,
  otherChars = 100,
): ContextMessageClass => ({ kind, tool, reasoningChars, otherChars });

const tokensOf = (result: ReturnType<typeof categorizeContext>) =>
  Object.fromEntries(result.categories.map((category) => [category.id, category.tokens]));

describe('categorizeContext', () => {
  const classes = [
    entry('system'),
    entry('user'),
    // 300 of 400 characters are reasoning: 3/4 of its 80 tokens are thinking.
    entry('assistant', '', 300, 100),
    entry('tool-result', 'Read'),
    entry('tool-result', 'Bash'),
    entry('tool-result', 'Read'),
    entry('summary'),
  ];
  const tokensPerMessage = [120, 30, 80, 500, 200, 700, 90];

  it('sums every message into its category, tool results by tool, largest first', () => {
    const result = categorizeContext({
      classes,
      tokensPerMessage,
      toolsTokens: 400,
      windowTokens: 10_000,
      thinkingCounted: true,
    });
    expect(result.categories.map((category) => category.id)).toEqual([
      'system',
      'tool-schemas',
      'tool-results:Read',
      'tool-results:Bash',
      'thinking',
      'user',
      'assistant',
      'summaries',
      'free-space',
    ]);
    expect(tokensOf(result)).toEqual({
      system: 120,
      'tool-schemas': 400,
      'tool-results:Read': 1200, // 500 + 700
      'tool-results:Bash': 200,
      thinking: 60, // round(80 × 300 / 400)
      user: 30,
      assistant: 20, // 80 − 60
      summaries: 90,
      // 10,000 − (120 + 30 + 80 + 500 + 200 + 700 + 90 + 400 = 2,120)
      'free-space': 7_880,
    });
    expect(result.usedTokens).toBe(2_120);
    expect(result.categories.find((category) => category.id === 'tool-results:Read')!.messages).toBe(2);
  });

  it('adds up to the map total: every category but free space', () => {
    const result = categorizeContext({
      classes,
      tokensPerMessage,
      toolsTokens: 400,
      windowTokens: 10_000,
      thinkingCounted: true,
    });
    const inUse = result.categories
      .filter((category) => category.kind !== 'free-space')
      .reduce((sum, category) => sum + category.tokens, 0);
    expect(inUse).toBe(2_120);
  });

  it('leaves thinking at zero when the basis does not count reasoning (exact counts)', () => {
    const result = categorizeContext({
      classes,
      tokensPerMessage,
      toolsTokens: 400,
      windowTokens: 10_000,
      thinkingCounted: false,
    });
    expect(tokensOf(result)).toMatchObject({ thinking: 0, assistant: 80 });
    expect(result.thinkingCounted).toBe(false);
  });

  it('rounds the thinking share and keeps the remainder with the message', () => {
    // 1 of 3 characters is reasoning: round(10 / 3) = 3 thinking, 7 assistant.
    const result = categorizeContext({
      classes: [entry('assistant', '', 1, 2)],
      tokensPerMessage: [10],
      toolsTokens: 0,
      windowTokens: 100,
      thinkingCounted: true,
    });
    expect(tokensOf(result)).toMatchObject({ thinking: 3, assistant: 7, 'free-space': 90 });
  });

  it('has no free space once the context is over the window', () => {
    const result = categorizeContext({
      classes: [entry('user')],
      tokensPerMessage: [1_500],
      toolsTokens: 0,
      windowTokens: 1_000,
      thinkingCounted: true,
    });
    expect(tokensOf(result)['free-space']).toBe(0);
    expect(result.usedTokens).toBe(1_500);
  });

  it('names results of an unnamed tool, and lists other roles only when there are some', () => {
    const result = categorizeContext({
      classes: [entry('tool-result', ''), entry('other')],
      tokensPerMessage: [5, 7],
      toolsTokens: 0,
      windowTokens: 100,
      thinkingCounted: true,
    });
    expect(result.categories.find((category) => category.id === 'tool-results')!.label).toBe(
      'Results of an unnamed tool',
    );
    expect(tokensOf(result).other).toBe(7);
    const none = categorizeContext({
      classes: [entry('user')],
      tokensPerMessage: [5],
      toolsTokens: 0,
      windowTokens: 100,
      thinkingCounted: true,
    });
    expect(none.categories.some((category) => category.kind === 'other')).toBe(false);
  });
});
