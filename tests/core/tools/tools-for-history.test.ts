import { describe, expect, it } from 'vitest';
import { toolsForHistory } from '#core/tools/tools-for-history.ts';
import type { Message } from '#core/transcript/message.ts';

const call = (id: string, name: string): Message => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name, arguments: '{}' } }],
});

describe('toolsForHistory', () => {
  it('keeps the given schemas and adds a minimal one for each called tool that has none, once', () => {
    const read = {
      type: 'function',
      function: { name: 'read', description: 'Read', parameters: { type: 'object' } },
    };
    const grep = { name: 'grep', description: 'Search', input_schema: { type: 'object' } };
    const history: Message[] = [
      { role: 'user', content: 'look' },
      call('a', 'read'),
      { role: 'tool', tool_call_id: 'a', content: 'x' },
      call('b', 'grep'),
      { role: 'tool', tool_call_id: 'b', content: 'y' },
      call('c', 'Bash'),
      { role: 'tool', tool_call_id: 'c', content: 'z' },
      call('d', 'Bash'),
      { role: 'tool', tool_call_id: 'd', content: 'w' },
    ];
    expect(toolsForHistory([read, grep], history)).toEqual([
      read,
      grep,
      {
        type: 'function',
        function: {
          name: 'Bash',
          description: 'A tool this conversation called earlier; its schema was not recorded.',
          parameters: { type: 'object' },
        },
      },
    ]);
  });

  it('adds nothing for a history without tool calls', () => {
    expect(toolsForHistory([], [{ role: 'user', content: 'hi' }])).toEqual([]);
  });
});
