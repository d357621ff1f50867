import { describe, expect, it } from 'vitest';
import {
  accumulateChatCompletionChunks,
  applyChatCompletionStreamData,
  chatCompletionStreamResponse,
  createChatCompletionStreamState,
} from '#core/providers/openai-compatible/accumulate-chat-completion-chunks.ts';

const chunk = (delta: object, finishReason: string | null = null): string =>
  JSON.stringify({
    id: 'chatcmpl-1',
    model: 'gpt-test',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  });

const payloads = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ content: 'Let me ' }),
  chunk({ content: 'look.' }),
  chunk({
    tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'ls', arguments: '' } }],
  }),
  chunk({
    tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'read', arguments: '{"pa' } }],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }),
  chunk({ tool_calls: [{ index: 1, function: { arguments: 'th":"a"}' } }] }),
  chunk({}, 'tool_calls'),
  JSON.stringify({
    id: 'chatcmpl-1',
    model: 'gpt-test',
    choices: [],
    usage: { prompt_tokens: 50, completion_tokens: 9 },
  }),
  '[DONE]',
];

describe('accumulateChatCompletionChunks', () => {
  it('rebuilds content, tool calls by index and the usage of the final chunk', () => {
    const state = accumulateChatCompletionChunks(payloads);
    expect(state.complete).toBe(true);
    expect(chatCompletionStreamResponse(state)).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'gpt-test',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Let me look.',
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'ls', arguments: '{}' } },
              { id: 'call_b', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 50, completion_tokens: 9 },
    });
  });

  it('is incomplete without [DONE] and counts payloads that are not JSON', () => {
    const state = accumulateChatCompletionChunks([chunk({ content: 'Hi' }), '{not json']);
    expect(state.complete).toBe(false);
    expect(state.malformedChunkCount).toBe(1);
    expect(state.content).toBe('Hi');
  });

  it('records an error chunk sent mid-stream', () => {
    const state = accumulateChatCompletionChunks([
      JSON.stringify({ error: { message: 'Provider returned error', code: 502 } }),
    ]);
    expect(state.error).toEqual({ message: 'Provider returned error', code: 502 });
  });

  it('treats calls sent whole without an index as separate calls', () => {
    const state = accumulateChatCompletionChunks([
      chunk({ tool_calls: [{ id: 'x', function: { name: 'a', arguments: '{}' } }] }),
      chunk({ tool_calls: [{ id: 'y', function: { name: 'b', arguments: '{"k":1}' } }] }),
    ]);
    expect(state.toolCalls).toEqual([
      { id: 'x', name: 'a', arguments: '{}' },
      { id: 'y', name: 'b', arguments: '{"k":1}' },
    ]);
  });
});

describe('applyChatCompletionStreamData', () => {
  it('returns text, reasoning and tool-call deltas for handlers', () => {
    const state = createChatCompletionStreamState();
    expect(applyChatCompletionStreamData(state, chunk({ reasoning_content: 'hmm', content: 'Hi' }))).toEqual([
      { type: 'reasoning-delta', text: 'hmm' },
      { type: 'text-delta', text: 'Hi' },
    ]);
    expect(
      applyChatCompletionStreamData(
        state,
        chunk({ tool_calls: [{ index: 0, id: 'c', function: { name: 'ls', arguments: '{' } }] }),
      ),
    ).toEqual([{ type: 'tool-call-delta', index: 0, id: 'c', name: 'ls', argumentsDelta: '{' }]);
  });
});
