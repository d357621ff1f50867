import { describe, expect, it } from 'vitest';
import { messageSearchText } from '#core/search/message-search-text.ts';

describe('messageSearchText', () => {
  it('joins content, the tool name of a result and each tool call', () => {
    expect(
      messageSearchText({ role: 'tool', content: 'ok', tool_call_id: 'c1', tool_name: 'read_file' }),
    ).toBe('ok\nread_file');
    expect(
      messageSearchText({
        role: 'assistant',
        content: 'Reading it.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.py"}' } },
        ],
      }),
    ).toBe('Reading it.\nread_file {"path":"a.py"}');
  });

  it('reads text parts and ignores images and reasoning', () => {
    expect(
      messageSearchText({
        role: 'user',
        reasoning: 'secret thoughts',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      }),
    ).toBe('look');
  });
});
