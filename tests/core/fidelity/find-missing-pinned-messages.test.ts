import { describe, expect, it } from 'vitest';
import { findMissingPinnedMessages } from '#core/fidelity/find-missing-pinned-messages.ts';
import type { Message } from '#core/transcript/message.ts';

const input: Message[] = [
  { role: 'system', content: 'sys' },
  { role: 'user', content: 'Never change the public API.' },
  {
    role: 'assistant',
    content: 'ok',
    tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
  },
  { role: 'tool', tool_call_id: 'c1', content: 'a.txt' },
  { role: 'user', content: 'Never change the public API.' },
];

describe('findMissingPinnedMessages', () => {
  it('finds nothing missing when the pinned messages are kept, markers and all', () => {
    const output: Message[] = [
      input[0]!,
      {
        role: 'user',
        content: [{ type: 'text', text: 'Never change the public API.' }],
        cache_control: { type: 'ephemeral' },
      },
      input[2]!,
      input[3]!,
    ];
    expect(findMissingPinnedMessages(input, [1, 2, 3], output)).toEqual([]);
  });

  it('reports a pinned message whose text or tool calls changed, or that is gone', () => {
    const output: Message[] = [
      { role: 'user', content: 'Never change the public API!' },
      {
        role: 'assistant',
        content: 'ok',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{"a":1}' } }],
      },
    ];
    expect(findMissingPinnedMessages(input, [3, 2, 1], output)).toEqual([1, 2, 3]);
  });

  it('needs a copy for each of two identical pinned messages', () => {
    expect(findMissingPinnedMessages(input, [1, 4], [input[1]!])).toEqual([4]);
    expect(findMissingPinnedMessages(input, [1, 4], [input[1]!, input[4]!])).toEqual([]);
  });

  it('ignores pins outside the input and has nothing to report without pins', () => {
    expect(findMissingPinnedMessages(input, [-1, 9], [])).toEqual([]);
    expect(findMissingPinnedMessages(input, [], [])).toEqual([]);
  });
});
