import { describe, expect, it } from 'vitest';
import { fromAnthropicResponse } from '#core/providers/anthropic/from-anthropic-response.ts';

describe('fromAnthropicResponse', () => {
  it('maps text and tool_use blocks to an assistant message with JSON string arguments', () => {
    const result = fromAnthropicResponse({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [
        { type: 'text', text: 'Reading it.' },
        { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.ts' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 3 },
    });
    expect(result).toEqual({
      ok: true,
      value: {
        message: {
          role: 'assistant',
          content: 'Reading it.',
          tool_calls: [
            { id: 'toolu_1', type: 'function', function: { name: 'read', arguments: '{"path":"a.ts"}' } },
          ],
        },
        stopReason: 'tool-calls',
        rawStopReason: 'tool_use',
        usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 3 },
        model: 'claude-test',
        id: 'msg_1',
      },
    });
  });

  it('keeps thinking as reasoning with its signed block for replay', () => {
    const result = fromAnthropicResponse({
      content: [
        { type: 'thinking', thinking: 'hmm', signature: 'sig' },
        { type: 'text', text: 'Answer.' },
      ],
      stop_reason: 'end_turn',
    });
    expect(result.ok && result.value.message).toEqual({
      role: 'assistant',
      content: 'Answer.',
      reasoning: 'hmm',
      reasoning_details: [{ type: 'thinking', thinking: 'hmm', signature: 'sig' }],
    });
  });

  it('gives null content when the reply is only tool calls', () => {
    const result = fromAnthropicResponse({
      content: [{ type: 'tool_use', id: 't', name: 'x', input: {} }],
      stop_reason: 'tool_use',
    });
    expect(result.ok && result.value.message.content).toBeNull();
  });

  it('keeps a tool_use block that came without an id, with an empty id for the client to name', () => {
    const result = fromAnthropicResponse({
      content: [{ type: 'tool_use', name: 'search_sessions', input: { query: 'a' } }],
      stop_reason: 'tool_use',
    });
    expect(result.ok && result.value.message.tool_calls).toEqual([
      { id: '', type: 'function', function: { name: 'search_sessions', arguments: '{"query":"a"}' } },
    ]);
  });

  it('reports a body without a content list as an InvalidProviderResponse', () => {
    expect(fromAnthropicResponse({ type: 'error' })).toEqual({
      ok: false,
      error: {
        type: 'InvalidProviderResponse',
        provider: 'anthropic',
        details: 'the response has no content list',
      },
    });
  });
});
