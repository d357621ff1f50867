import { describe, expect, it } from 'vitest';
import { matchToolResults } from '#core/transcript/match-tool-results.ts';
import type { Message, ToolCall } from '#core/transcript/message.ts';

const call = (id: string): ToolCall => ({
  id,
  type: 'function',
  function: { name: 'tool', arguments: '{}' },
});
const assistant = (...ids: string[]): Message => ({
  role: 'assistant',
  content: null,
  tool_calls: ids.map(call),
});
const result = (id: string, content: string): Message => ({ role: 'tool', tool_call_id: id, content });

describe('matchToolResults', () => {
  it('pairs results with calls by id when ids are unique', () => {
    const messages = [assistant('a', 'b'), result('b', 'B'), result('a', 'A')];
    expect(matchToolResults(messages)).toEqual([[messages[2], messages[1]], [], []]);
  });

  it('pairs two calls that share an id in call order', () => {
    const messages = [assistant('dup', 'dup'), result('dup', 'first'), result('dup', 'second')];
    expect(matchToolResults(messages)[0]).toEqual([messages[1], messages[2]]);
  });

  it('pairs an id repeated in a later turn with that turn, not with the first', () => {
    const messages: Message[] = [
      { role: 'user', content: 'one' },
      assistant('call_0'),
      result('call_0', 'turn 1'),
      { role: 'user', content: 'two' },
      assistant('call_0'),
      result('call_0', 'turn 2'),
    ];
    const results = matchToolResults(messages);
    expect(results[1]).toEqual([messages[2]]);
    expect(results[4]).toEqual([messages[5]]);
  });

  it('answers the newest open call of an id when an older one was never answered', () => {
    const messages = [assistant('x'), assistant('x'), result('x', 'late')];
    expect(matchToolResults(messages)).toEqual([[undefined], [messages[2]], []]);
  });

  it('leaves a call without a result undefined and ignores a result without a call', () => {
    const messages = [assistant('a', ''), result('zzz', 'orphan'), result('', 'for the empty id')];
    expect(matchToolResults(messages)[0]).toEqual([undefined, messages[2]]);
  });
});
