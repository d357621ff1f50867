import { describe, expect, it } from 'vitest';
import type { Message } from '#core/transcript/message.ts';
import { toolGroupAround } from '#core/transcript/tool-group-around.ts';

const messages: Message[] = [
  { role: 'user', content: 'go' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'a', type: 'function', function: { name: 'read', arguments: '{}' } },
      { id: 'b', type: 'function', function: { name: 'read', arguments: '{}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'a', content: 'x' },
  { role: 'tool', tool_call_id: 'b', content: 'y' },
  { role: 'assistant', content: 'done' },
  { role: 'tool', tool_call_id: 'orphan', content: 'z' },
];

describe('toolGroupAround', () => {
  it('spans the call and every result from any of them', () => {
    expect(toolGroupAround(messages, 1)).toEqual([1, 4]);
    expect(toolGroupAround(messages, 2)).toEqual([1, 4]);
    expect(toolGroupAround(messages, 3)).toEqual([1, 4]);
  });

  it('is the message alone outside a group, an orphan result included', () => {
    expect(toolGroupAround(messages, 0)).toEqual([0, 1]);
    expect(toolGroupAround(messages, 4)).toEqual([4, 5]);
    expect(toolGroupAround(messages, 5)).toEqual([5, 6]);
  });
});
