import { describe, expect, it } from 'vitest';
import { applyCacheControl } from '#core/caching/apply-cache-control.ts';
import {
  toAnthropicRequest,
  type AnthropicRequestOptions,
} from '#core/providers/anthropic/to-anthropic-request.ts';
import type { Message } from '#core/transcript/message.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';

const options: AnthropicRequestOptions = {
  model: 'claude-test',
  maxTokens: 1024,
  stream: false,
  cacheMarkersApplied: true,
};
const marker = { type: 'ephemeral' } as const;

describe('toAnthropicRequest', () => {
  it('moves system messages into system text blocks and keeps their markers', () => {
    const { body } = toAnthropicRequest(
      [
        { role: 'system', content: [{ type: 'text', text: 'You are helpful.', cache_control: marker }] },
        { role: 'user', content: 'hi' },
      ],
      { ...options, systemPrompt: 'Preamble.' },
    );
    expect(body.system).toEqual([
      { type: 'text', text: 'Preamble.' },
      { type: 'text', text: 'You are helpful.', cache_control: marker },
    ]);
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]);
    expect(body).toMatchObject({ model: 'claude-test', max_tokens: 1024, stream: false });
  });

  it('groups consecutive tool messages into one user message of tool_result blocks', () => {
    const { body } = toAnthropicRequest(
      [
        { role: 'user', content: 'list and read' },
        {
          role: 'assistant',
          content: 'Sure.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{"path": "."}' } },
            { id: 'call_2', type: 'function', function: { name: 'read', arguments: '{"file": "a.ts"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'a.ts' },
        { role: 'tool', tool_call_id: 'call_2', content: 'export {}', cache_control: marker },
        { role: 'user', content: 'thanks' },
      ],
      options,
    );
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'list and read' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Sure.' },
          { type: 'tool_use', id: 'call_1', name: 'ls', input: { path: '.' } },
          { type: 'tool_use', id: 'call_2', name: 'read', input: { file: 'a.ts' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: 'a.ts' },
          { type: 'tool_result', tool_use_id: 'call_2', content: 'export {}', cache_control: marker },
          { type: 'text', text: 'thanks' },
        ],
      },
    ]);
  });

  it('sends unparseable tool arguments as {} with a warning, and empty arguments silently', () => {
    const { body, warnings } = toAnthropicRequest(
      [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'a', type: 'function', function: { name: 'broken', arguments: '{"path": ' } },
            { id: 'b', type: 'function', function: { name: 'none', arguments: '' } },
          ],
        },
      ],
      options,
    );
    expect(body.messages[1]!.content).toEqual([
      { type: 'tool_use', id: 'a', name: 'broken', input: {} },
      { type: 'tool_use', id: 'b', name: 'none', input: {} },
    ]);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ feature: 'tool_use.input' });
    expect(warnings[0]!.details).toContain('broken');
  });

  it('rewrites tool ids the API would reject, the same way on both sides of the pair', () => {
    const { body } = toAnthropicRequest(
      [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: 'functions.read:0', type: 'function', function: { name: 'read', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'functions.read:0', content: 'ok' },
      ],
      options,
    );
    expect(body.messages[1]!.content[0]).toMatchObject({ type: 'tool_use', id: 'functions_read_0' });
    expect(body.messages[2]!.content[0]).toMatchObject({
      type: 'tool_result',
      tool_use_id: 'functions_read_0',
    });
  });

  it('turns data-URL images into base64 blocks and http images into url blocks', () => {
    const { body, warnings } = toAnthropicRequest(
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'compare' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
            { type: 'image_url', image_url: { url: 'ftp://example.com/x.png' } },
          ],
        },
      ],
      options,
    );
    expect(body.messages[0]!.content).toEqual([
      { type: 'text', text: 'compare' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
    ]);
    expect(warnings).toEqual([expect.objectContaining({ type: 'unsupported', feature: 'image' })]);
  });

  it('replays signed thinking first and drops unsigned reasoning with one warning', () => {
    const { body, warnings } = toAnthropicRequest(
      [
        { role: 'user', content: 'q1' },
        {
          role: 'assistant',
          content: 'a1',
          reasoning: 'thought',
          reasoning_details: [{ type: 'thinking', thinking: 'thought', signature: 'sig-1' }],
        },
        { role: 'user', content: 'q2' },
        { role: 'assistant', content: 'a2', reasoning: 'unsigned thought' },
      ],
      options,
    );
    expect(body.messages[1]!.content).toEqual([
      { type: 'thinking', thinking: 'thought', signature: 'sig-1' },
      { type: 'text', text: 'a1' },
    ]);
    expect(body.messages[3]!.content).toEqual([{ type: 'text', text: 'a2' }]);
    expect(warnings).toEqual([expect.objectContaining({ type: 'dropped', feature: 'reasoning' })]);
  });

  it('merges consecutive same-role messages so roles alternate', () => {
    const { body } = toAnthropicRequest(
      [
        { role: 'user', content: 'one' },
        { role: 'user', content: 'two' },
        { role: 'assistant', content: 'three' },
        { role: 'assistant', content: 'four' },
      ],
      options,
    );
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'three' },
          { type: 'text', text: 'four' },
        ],
      },
    ]);
  });

  it('never sends keys that start with an underscore', () => {
    const { body } = toAnthropicRequest(
      [
        {
          role: 'user',
          content: [{ type: 'document', source: { type: 'text', data: 'x' }, _local: 1 }],
          _db_persisted: true,
        },
        { role: 'assistant', content: 'ok', _compressed_summary: true },
      ],
      options,
    );
    expect(JSON.stringify(body)).not.toMatch(/"_/);
  });

  it('drops empty text and empty assistant messages, which the API rejects', () => {
    const { body, warnings } = toAnthropicRequest(
      [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '' },
        {
          role: 'user',
          content: [
            { type: 'text', text: '' },
            { type: 'text', text: 'there' },
          ],
        },
      ],
      options,
    );
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'text', text: 'there' },
        ],
      },
    ]);
    expect(warnings).toEqual([expect.objectContaining({ feature: 'message' })]);
  });

  it('keeps at most 4 breakpoints: the system one and the latest message ones', () => {
    const messages: Message[] = [
      { role: 'system', content: 'sys', cache_control: marker },
      ...Array.from({ length: 5 }, (_, index): Message => ({
        role: index % 2 === 0 ? 'user' : 'assistant',
        content: `m${index}`,
        cache_control: marker,
      })),
    ];
    const { body, warnings } = toAnthropicRequest(messages, options);
    const marked = body.messages.filter((turn) =>
      turn.content.some((block) => 'cache_control' in block && block.cache_control),
    );
    expect(body.system![0]!.cache_control).toEqual(marker);
    expect(marked.map((turn) => turn.content[0]).map((block) => (block as { text: string }).text)).toEqual([
      'm2',
      'm3',
      'm4',
    ]);
    expect(warnings).toHaveLength(2);
    expect(
      warnings.every((warning) => warning.feature === 'cache_control' && warning.type === 'dropped'),
    ).toBe(true);
  });

  it('drops every marker when the markers were not applied for this request', () => {
    const { body, warnings } = toAnthropicRequest(
      [
        { role: 'system', content: 'sys', cache_control: marker },
        { role: 'user', content: [{ type: 'text', text: 'hi', cache_control: marker }] },
      ],
      { ...options, cacheMarkersApplied: false },
    );
    expect(JSON.stringify(body)).not.toContain('cache_control');
    expect(warnings).toEqual([]);
  });

  it('puts applyCacheControl native-layout markers on the system block, the tool_result and the last text', () => {
    const messages: Message[] = [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'run ls' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'terminal', arguments: '{"command":"ls"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a.ts\nb.ts' },
      { role: 'user', content: 'now read a.ts' },
    ];
    const marked = applyCacheControl(messages, { ttl: '1h', nativeLayout: true }, HERMES_2026_04);
    const { body, warnings } = toAnthropicRequest(marked, options);
    const oneHour = { type: 'ephemeral', ttl: '1h' };
    expect(body.system).toEqual([{ type: 'text', text: 'You are a coding agent.', cache_control: oneHour }]);
    expect(body.messages[1]!.content).toEqual([
      { type: 'tool_use', id: 'c1', name: 'terminal', input: { command: 'ls' }, cache_control: oneHour },
    ]);
    expect(body.messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'c1', content: 'a.ts\nb.ts', cache_control: oneHour },
      { type: 'text', text: 'now read a.ts', cache_control: oneHour },
    ]);
    expect(warnings).toEqual([]);
  });

  it('maps OpenAI-shaped tools to Anthropic tool definitions', () => {
    const { body } = toAnthropicRequest([{ role: 'user', content: 'hi' }], {
      ...options,
      tools: [
        {
          type: 'function',
          function: {
            name: 'read',
            description: 'Read a file',
            parameters: { type: 'object', properties: { path: { type: 'string' } } },
          },
        },
      ],
    });
    expect(body.tools).toEqual([
      {
        name: 'read',
        description: 'Read a file',
        input_schema: { type: 'object', properties: { path: { type: 'string' } } },
      },
    ]);
  });

  it('sends a tool choice of none beside the tools, and never without tools', () => {
    const tools = [{ name: 'read', description: 'Read', input_schema: { type: 'object' } }];
    const withTools = toAnthropicRequest([{ role: 'user', content: 'hi' }], {
      ...options,
      tools,
      toolChoice: 'none',
    }).body;
    expect(withTools.tool_choice).toEqual({ type: 'none' });
    // The API refuses a tool choice with no tools, so none is sent.
    const without = toAnthropicRequest([{ role: 'user', content: 'hi' }], {
      ...options,
      toolChoice: 'none',
    }).body;
    expect(without).not.toHaveProperty('tool_choice');
    expect(
      toAnthropicRequest([{ role: 'user', content: 'hi' }], { ...options, tools }).body,
    ).not.toHaveProperty('tool_choice');
  });
});
