import { describe, expect, it } from 'vitest';
import { applyCacheControl } from '#core/caching/apply-cache-control.ts';
import { toOpenAiChatRequest } from '#core/providers/openai-compatible/to-openai-chat-request.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';

describe('toOpenAiChatRequest', () => {
  it('strips in-process and sidecar keys and asks for usage when streaming', () => {
    const { body } = toOpenAiChatRequest(
      [
        { role: 'user', content: 'hi', _db_persisted: true },
        { role: 'assistant', content: 'hello', _compressed_summary: true, api_content: 'x' },
        { role: 'tool', tool_call_id: 'c1', name: 'ls', tool_name: 'ls', content: 'ok' },
      ],
      { model: 'gpt-test', maxTokens: 100, stream: true, cacheMarkersApplied: false },
    );
    expect(body).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
        { role: 'tool', tool_call_id: 'c1', name: 'ls', content: 'ok' },
      ],
      max_tokens: 100,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('keeps the envelope cache markers of OpenRouter Claude when they were applied', () => {
    const marked = applyCacheControl(
      [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'question' },
      ],
      { ttl: '5m', nativeLayout: false },
      HERMES_2026_04,
    );
    const { body } = toOpenAiChatRequest(marked, {
      model: 'anthropic/claude-test',
      stream: false,
      cacheMarkersApplied: true,
    });
    expect(body.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }] },
      { role: 'user', content: [{ type: 'text', text: 'question', cache_control: { type: 'ephemeral' } }] },
    ]);
    expect(body).not.toHaveProperty('stream_options');
  });

  it('drops stale markers and underscore keys inside content parts when markers were not applied', () => {
    const { body } = toOpenAiChatRequest(
      [
        {
          role: 'user',
          content: [{ type: 'text', text: 'q', cache_control: { type: 'ephemeral' }, _origin: 'import' }],
          cache_control: { type: 'ephemeral' },
        },
      ],
      { model: 'm', stream: false, cacheMarkersApplied: false },
    );
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'q' }] }]);
  });

  it('normalises tool calls, drops an empty tool_calls list and uses max_completion_tokens when asked', () => {
    const { body } = toOpenAiChatRequest(
      [
        { role: 'assistant', content: '', tool_calls: [] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' }, _x: 1 }],
        },
      ],
      {
        model: 'o-test',
        maxTokens: 50,
        maxTokensField: 'max_completion_tokens',
        stream: false,
        cacheMarkersApplied: false,
      },
    );
    expect(body.messages).toEqual([
      { role: 'assistant', content: '' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
      },
    ]);
    expect(body.max_completion_tokens).toBe(50);
    expect(body).not.toHaveProperty('max_tokens');
  });

  it('prepends the system prompt and rewraps Anthropic-shaped tools', () => {
    const { body } = toOpenAiChatRequest([{ role: 'user', content: 'hi' }], {
      model: 'm',
      systemPrompt: 'Be brief.',
      tools: [{ name: 'read', description: 'Read', input_schema: { type: 'object' } }],
      stream: false,
      cacheMarkersApplied: false,
    });
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 'read', description: 'Read', parameters: { type: 'object' } } },
    ]);
  });

  it('sends tool_choice none beside the tools, and never without tools', () => {
    const base = { model: 'm', stream: false, cacheMarkersApplied: false, toolChoice: 'none' as const };
    const tools = [{ name: 'read', description: 'Read', input_schema: { type: 'object' } }];
    expect(toOpenAiChatRequest([{ role: 'user', content: 'hi' }], { ...base, tools }).body.tool_choice).toBe(
      'none',
    );
    expect(toOpenAiChatRequest([{ role: 'user', content: 'hi' }], base).body).not.toHaveProperty(
      'tool_choice',
    );
  });
});
