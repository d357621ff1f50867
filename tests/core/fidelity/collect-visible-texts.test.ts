import { describe, expect, it } from 'vitest';
import { collectVisibleTexts } from '#core/fidelity/collect-visible-texts.ts';

describe('collectVisibleTexts', () => {
  it('takes message text, tool names and decoded argument values, and extra texts', () => {
    expect(
      collectVisibleTexts(
        [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'hello' },
              { type: 'image_url', image_url: { url: 'x' } },
            ],
          },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'c1',
                type: 'function',
                function: {
                  name: 'shell',
                  arguments: '{"command":["git","status"],"timeout":5,"opts":{"dry":true}}',
                },
              },
              { id: 'c2', type: 'function', function: { name: 'raw', arguments: 'not json' } },
            ],
          },
        ],
        ['the summary'],
      ),
    ).toEqual(['hello', 'shell', 'git status', '5', 'true', 'raw', 'not json', 'the summary']);
  });
});
