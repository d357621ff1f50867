// @vitest-environment jsdom
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { render } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { matchToolResults } from '#core/transcript/match-tool-results.ts';
import type { Message } from '#core/transcript/message.ts';
import ChatMessageView from '#ui/chat/ChatMessageView.svelte';

describe('ChatMessageView', () => {
  it('renders two tool calls that share an id (a session stored before ids were made unique)', () => {
    const message: Message = {
      role: 'assistant',
      content: 'Looking twice.',
      tool_calls: [
        {
          id: 'dup',
          type: 'function',
          function: { name: 'search_sessions', arguments: '{"query":"alpha"}' },
        },
        { id: 'dup', type: 'function', function: { name: 'search_sessions', arguments: '{"query":"beta"}' } },
      ],
    };
    const conversation: Message[] = [
      message,
      { role: 'tool', tool_call_id: 'dup', content: 'alpha found' },
      { role: 'tool', tool_call_id: 'dup', content: 'beta found' },
    ];
    const { getAllByTestId } = render(ChatMessageView, {
      props: { message, preset: HERMES_2026_04, results: matchToolResults(conversation)[0]! },
    });
    expect(getAllByTestId('chat-tool-call')).toHaveLength(2);
    // Each call shows its own result, not the last one with that id.
    expect(getAllByTestId('chat-tool-result').map((element) => element.textContent)).toEqual([
      'alpha found',
      'beta found',
    ]);
  });
});
