import { describe, expect, it } from 'vitest';
import { sanitizeApiMessages } from '#core/compression/sanitize-api-messages.ts';
import type { Message } from '#core/transcript/message.ts';
import { assistant, toolCall, toolResult, user } from './message-builders.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

describe('sanitizeApiMessages', () => {
  it('drops messages whose role the API does not accept', () => {
    const input: Message[] = [user('a'), { role: 'narrator', content: 'x' }, assistant('b')];
    expect(sanitizeApiMessages(input, HERMES_2026_07).map((m) => m.role)).toEqual(['user', 'assistant']);
  });

  it('removes empty or non-list tool_calls', () => {
    const input: Message[] = [user('a'), { role: 'assistant', content: 'b', tool_calls: [] }];
    expect(sanitizeApiMessages(input, HERMES_2026_07)[1]).toEqual({ role: 'assistant', content: 'b' });
  });

  it('names a blank tool name invalid_tool_call and stubs its missing result with the name', () => {
    const call = { ...toolCall('c1'), function: { name: ' ', arguments: '{}' } };
    const result = sanitizeApiMessages([user('a'), assistant('', [call]), user('b')], HERMES_2026_07);
    expect(result[1]!.tool_calls![0]!.function.name).toBe('invalid_tool_call');
    expect(result[2]).toEqual({
      role: 'tool',
      name: 'invalid_tool_call',
      content: '[Result unavailable — see context summary above]',
      tool_call_id: 'c1',
    });
  });

  it('drops orphan results but keeps a result without an id', () => {
    const input: Message[] = [user('a'), toolResult('gone', 'x'), { role: 'tool', content: 'no id' }];
    expect(sanitizeApiMessages(input, HERMES_2026_04)).toEqual([
      user('a'),
      { role: 'tool', content: 'no id' },
    ]);
  });
});
