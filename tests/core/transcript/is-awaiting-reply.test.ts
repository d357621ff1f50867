import { describe, expect, it } from 'vitest';
import { isAwaitingReply } from '#core/transcript/is-awaiting-reply.ts';

describe('isAwaitingReply', () => {
  it('waits after a user message or a tool result', () => {
    expect(isAwaitingReply([{ role: 'user', content: 'hello' }])).toBe(true);
    expect(isAwaitingReply([{ role: 'tool', tool_call_id: 'c1', content: 'ok' }])).toBe(true);
  });

  it('waits after a call whose results are missing', () => {
    expect(
      isAwaitingReply([
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }],
        },
      ]),
    ).toBe(true);
  });

  it('does not wait after an answer, a lone system prompt or nothing', () => {
    expect(
      isAwaitingReply([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
      ]),
    ).toBe(false);
    expect(isAwaitingReply([{ role: 'system', content: 'Be brief.' }])).toBe(false);
    expect(isAwaitingReply([])).toBe(false);
  });
});
