import { describe, expect, it } from 'vitest';
import { fromOpenAiChatResponse } from '#core/providers/openai-compatible/from-openai-chat-response.ts';

describe('fromOpenAiChatResponse', () => {
  it('maps choices[0].message with tool calls and keeps the raw usage', () => {
    const usage = { prompt_tokens: 100, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 64 } };
    const result = fromOpenAiChatResponse({
      id: 'chatcmpl-1',
      model: 'gpt-test',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage,
    });
    expect(result).toEqual({
      ok: true,
      value: {
        message: {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"path":"."}' } },
          ],
        },
        stopReason: 'tool-calls',
        rawStopReason: 'tool_calls',
        usage,
        model: 'gpt-test',
        id: 'chatcmpl-1',
      },
    });
  });

  it('keeps reasoning_content as reasoning and turns object arguments into JSON text', () => {
    const result = fromOpenAiChatResponse({
      choices: [
        {
          message: {
            content: 'ok',
            reasoning_content: 'thinking',
            tool_calls: [{ id: 'c', function: { name: 'f', arguments: { a: 1 } } }],
          },
          finish_reason: 'stop',
        },
      ],
    });
    expect(result.ok && result.value.message).toEqual({
      role: 'assistant',
      content: 'ok',
      reasoning: 'thinking',
      tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
    });
  });

  it('reports a response without choices as an InvalidProviderResponse', () => {
    expect(fromOpenAiChatResponse({ error: { message: 'x' } }).ok).toBe(false);
    expect(fromOpenAiChatResponse({ choices: [] }).ok).toBe(false);
  });
});
