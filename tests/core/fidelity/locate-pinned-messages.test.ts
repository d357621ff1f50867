import { describe, expect, it } from 'vitest';
import { locatePinnedMessages } from '#core/fidelity/locate-pinned-messages.ts';
import type { Message } from '#core/transcript/message.ts';

const call: Message = {
  role: 'assistant',
  content: 'listing',
  tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
};
const input: Message[] = [
  { role: 'system', content: 'sys' },
  { role: 'user', content: 'Keep the public API.' },
  call,
  { role: 'tool', tool_call_id: 'c1', content: 'a.txt' },
  { role: 'user', content: 'Keep the public API.' },
  { role: 'assistant', content: 'done' },
];
const summary: Message = { role: 'user', content: '[CONTEXT COMPACTION] summary of earlier turns' };

describe('locatePinnedMessages', () => {
  it('follows each pin to where the output holds its message, kept or put back after the summary', () => {
    // The compaction summarised #1–#3, put the pinned #3's group back after the summary, kept #4–#5.
    const output = [input[0]!, summary, input[2]!, input[3]!, input[4]!, input[5]!];
    expect([...locatePinnedMessages(input, [3, 5], output)]).toEqual([
      [3, 3],
      [5, 5],
    ]);
  });

  it('matches a copy with the same role, text and calls when the object changed, but not a changed text', () => {
    const marked: Message = { ...input[5]!, cache_control: { type: 'ephemeral' } };
    expect([...locatePinnedMessages(input, [5], [summary, marked])]).toEqual([[5, 1]]);
    const edited: Message = { role: 'assistant', content: 'done!' };
    expect(locatePinnedMessages(input, [5], [summary, edited]).size).toBe(0);
  });

  it('gives each of two identical pinned messages its own copy, in order', () => {
    const copy: Message = { role: 'user', content: 'Keep the public API.' };
    // Only one copy: the first pin gets it, the second is lost.
    expect([...locatePinnedMessages(input, [1, 4], [summary, copy])]).toEqual([[1, 1]]);
    expect([...locatePinnedMessages(input, [4, 1], [copy, summary, { ...copy }])]).toEqual([
      [1, 0],
      [4, 2],
    ]);
  });

  it('prefers the very object over an identical copy earlier in the output', () => {
    // An unpinned #1 survives as a copy before the pinned #4, which the compaction kept as is.
    const output = [{ ...input[1]! }, input[4]!];
    expect([...locatePinnedMessages(input, [4], output)]).toEqual([[4, 1]]);
  });

  it('ignores indices outside the input and returns nothing without pins', () => {
    expect(locatePinnedMessages(input, [-1, 6, 1.5], input).size).toBe(0);
    expect(locatePinnedMessages(input, [], input).size).toBe(0);
  });
});
