import { describe, expect, it } from 'vitest';
import { collectToolCallIds, makeToolCallIdsUnique } from '#core/providers/make-tool-call-ids-unique.ts';
import type { Message, ToolCall } from '#core/transcript/message.ts';

const call = (id: string, name = 'search_sessions'): ToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: '{}' },
});
const reply = (...calls: ToolCall[]): Message => ({ role: 'assistant', content: null, tool_calls: calls });

describe('makeToolCallIdsUnique', () => {
  it('renames a repeated id within one reply with the importer convention (~2, ~3)', () => {
    const { message, warnings } = makeToolCallIdsUnique(reply(call('a'), call('a'), call('a')), new Set());
    expect(message.tool_calls!.map((each) => each.id)).toEqual(['a', 'a~2', 'a~3']);
    expect(warnings.map((warning) => warning.details)).toEqual([
      'tool call 2 (search_sessions) reuses the id "a"; renamed to "a~2"',
      'tool call 3 (search_sessions) reuses the id "a"; renamed to "a~3"',
    ]);
  });

  it('names calls without an id by position, avoiding ids already taken', () => {
    const { message } = makeToolCallIdsUnique(reply(call(''), call('')), new Set(['call_1']));
    expect(message.tool_calls!.map((each) => each.id)).toEqual(['call_0', 'call_1~2']);
  });

  it('renames an id the conversation already used in an earlier turn', () => {
    const { message } = makeToolCallIdsUnique(reply(call('call_0')), new Set(['call_0', 'call_0~2']));
    expect(message.tool_calls!.map((each) => each.id)).toEqual(['call_0~3']);
  });

  it('returns the very message, without warnings, when the ids are already unique', () => {
    const original = reply(call('a'), call('b'));
    const { message, warnings } = makeToolCallIdsUnique(original, new Set(['c']));
    expect(message).toBe(original);
    expect(warnings).toEqual([]);
  });

  it('keeps everything else of a renamed call and never changes the input', () => {
    const original = reply(call('x'), { ...call('x', 'read_persisted_output'), call_id: 'fc_1' });
    const { message } = makeToolCallIdsUnique(original, new Set());
    expect(message.tool_calls![1]).toEqual({ ...original.tool_calls![1], id: 'x~2' });
    expect(original.tool_calls!.map((each) => each.id)).toEqual(['x', 'x']);
  });
});

describe('collectToolCallIds', () => {
  it('collects the non-empty ids of every call in the messages', () => {
    const messages: Message[] = [
      { role: 'user', content: 'hi' },
      reply(call('a'), call('')),
      { role: 'tool', tool_call_id: 'a', content: 'ok' },
      reply(call('b')),
    ];
    expect([...collectToolCallIds(messages)]).toEqual(['a', 'b']);
  });
});
