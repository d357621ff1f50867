import { describe, expect, it } from 'vitest';
import { firstMessageSent } from '#core/strategies/trim-request-to-window.ts';
import { assistant, fixedTokens, result, system, user } from '#tests/helpers/strategy-fixtures.ts';

const messages = [
  system('s'),
  user('one'),
  assistant('two'),
  result('call-1', 'three'),
  assistant('four'),
  user('five'),
];
const tokens = fixedTokens([10, 100, 200, 300, 400, 500]);
const anywhere = () => true;
const atAssistant = (message: { role: string }) => message.role === 'assistant';

describe('firstMessageSent', () => {
  it('sends everything from the start when the request fits, wherever the start is', () => {
    expect(
      firstMessageSent(messages, 1, tokens, {
        requestTokens: 1510,
        windowTokens: 1510,
        canStartAt: atAssistant,
      }),
    ).toBe(1);
  });

  it('drops the fewest oldest messages that make the request fit', () => {
    // 1,510 − 100 = 1,410 > 1,400; − 200 more = 1,210 ≤ 1,400.
    expect(
      firstMessageSent(messages, 1, tokens, {
        requestTokens: 1510,
        windowTokens: 1400,
        canStartAt: anywhere,
      }),
    ).toBe(3);
    expect(
      firstMessageSent(messages, 1, tokens, {
        requestTokens: 1510,
        windowTokens: 1410,
        canStartAt: anywhere,
      }),
    ).toBe(2);
  });

  it('moves a cut on to where one may land', () => {
    expect(
      firstMessageSent(messages, 1, tokens, {
        requestTokens: 1510,
        windowTokens: 1400,
        canStartAt: atAssistant,
      }),
    ).toBe(4);
  });

  it('always sends the last message', () => {
    expect(
      firstMessageSent(messages, 1, tokens, { requestTokens: 1510, windowTokens: 0, canStartAt: anywhere }),
    ).toBe(5);
  });
});
