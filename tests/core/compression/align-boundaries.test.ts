import { describe, expect, it } from 'vitest';
import { alignBoundaryBackward, alignBoundaryForward } from '#core/compression/align-boundaries.ts';
import type { Message } from '#core/transcript/message.ts';

const call = (id: string): Message => ({
  role: 'assistant',
  content: '',
  tool_calls: [{ id, type: 'function', function: { name: 'f', arguments: '{}' } }],
});
const result = (id: string): Message => ({ role: 'tool', tool_call_id: id, content: 'r' });
const messages: Message[] = [
  { role: 'user', content: 'go' },
  call('a'),
  result('a'),
  result('a'),
  { role: 'assistant', content: 'done' },
];

describe('alignBoundaryForward', () => {
  it('slides past consecutive tool results', () => {
    expect(alignBoundaryForward(messages, 2)).toBe(4);
  });

  it('leaves a boundary on a non-tool message alone', () => {
    expect(alignBoundaryForward(messages, 1)).toBe(1);
    expect(alignBoundaryForward(messages, 5)).toBe(5);
  });
});

describe('alignBoundaryBackward', () => {
  it('moves a cut inside a result group back to the assistant that made the calls', () => {
    expect(alignBoundaryBackward(messages, 3)).toBe(1);
    expect(alignBoundaryBackward(messages, 4)).toBe(1);
  });

  it('moves a cut right after an assistant with unanswered calls back by one', () => {
    expect(
      alignBoundaryBackward([{ role: 'user', content: 'u' }, call('x'), { role: 'user', content: 'v' }], 2),
    ).toBe(1);
  });

  it('keeps the cut when the group is not headed by a tool-calling assistant', () => {
    expect(
      alignBoundaryBackward([{ role: 'user', content: 'u' }, result('z'), { role: 'user', content: 'v' }], 2),
    ).toBe(2);
  });

  it('is unchanged at or beyond either end', () => {
    expect([
      alignBoundaryBackward(messages, 0),
      alignBoundaryBackward(messages, 5),
      alignBoundaryBackward(messages, 9),
    ]).toEqual([0, 5, 9]);
  });
});
