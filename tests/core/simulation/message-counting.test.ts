import { describe, expect, it } from 'vitest';
import { messageTokenLookup, roughMessageCounting } from '#core/simulation/message-counting.ts';
import type { MessageCounting } from '#core/simulation/message-counting.ts';
import type { Message } from '#core/transcript/message.ts';

describe('messageTokenLookup', () => {
  const messages: Message[] = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hello there' },
  ];
  const counted: Message[] = [];
  const counting: MessageCounting = {
    perMessage: [7, 11],
    toolsTokens: 0,
    exact: true,
    countMessage: (message) => {
      counted.push(message);
      return 42;
    },
    countText: (text) => text.length,
  };

  it('uses the given counts for transcript messages and counts others once', () => {
    const tokensOf = messageTokenLookup(messages, counting);
    expect(tokensOf(messages[1]!)).toBe(11);
    const summary: Message = { role: 'user', content: 'Summary' };
    expect(tokensOf(summary)).toBe(42);
    expect(tokensOf(summary)).toBe(42);
    expect(counted).toEqual([summary]);
    // An equal copy is a different message: it is counted on its own.
    expect(tokensOf({ ...messages[1]! })).toBe(42);
  });

  it("rough counting gives each message its share of the host's one rounding, as the map does", () => {
    // Both reprs are 42 characters: (42 + 3) // 4 = 11 for the first, (84 + 3) // 4 − 11 = 10 for
    // the second (11 rounded on its own).
    expect(Array.from(roughMessageCounting(messages, []).perMessage)).toEqual([11, 10]);
  });
});
