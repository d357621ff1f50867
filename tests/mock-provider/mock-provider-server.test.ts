import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyCacheControl } from '#core/caching/apply-cache-control.ts';
import { toAnthropicRequest } from '#core/providers/anthropic/to-anthropic-request.ts';
import { toOpenAiChatRequest } from '#core/providers/openai-compatible/to-openai-chat-request.ts';
import {
  createServerSentEventParser,
  type ServerSentEvent,
} from '#core/providers/server-sent-event-parser.ts';
import type { Message } from '#core/transcript/message.ts';
import { startMockProvider, type MockProvider } from './mock-provider-server.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';

let mock: MockProvider;

beforeAll(async () => {
  mock = await startMockProvider({ port: 0 });
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  mock.reset();
});

const anthropicHeaders = {
  'content-type': 'application/json',
  'x-api-key': 'test-key',
  'anthropic-version': '2023-06-01',
};
const openAiHeaders = { 'content-type': 'application/json', authorization: 'Bearer test-key' };

function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = anthropicHeaders,
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(`${mock.url}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

async function readEvents(response: Response): Promise<ServerSentEvent[]> {
  const parser = createServerSentEventParser();
  const text = await response.text();
  return [...parser.push(text), ...parser.end()];
}

const simpleMessage = {
  model: 'claude-test',
  max_tokens: 200,
  messages: [{ role: 'user', content: 'What is a prefix cache?' }],
};

/** A system prompt well over the 1,024-token minimum a prefix needs to be cached. */
const LONG_SYSTEM_PROMPT = 'You are a careful coding agent. Follow the house rules. '.repeat(120);

function conversation(turns: number): Message[] {
  const messages: Message[] = [{ role: 'system', content: LONG_SYSTEM_PROMPT }];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ role: 'user', content: `Question ${turn}: ${'details '.repeat(200)}` });
    if (turn < turns - 1)
      messages.push({ role: 'assistant', content: `Answer ${turn}: ${'explanation '.repeat(150)}` });
  }
  return messages;
}

describe('startMockProvider', () => {
  it('answers the health check', async () => {
    const response = await fetch(`${mock.url}/health`);
    expect(await response.json()).toEqual({ ok: true });
  });

  it('answers Anthropic Messages as JSON with an echo and usage', async () => {
    const response = await post('/v1/messages', simpleMessage);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [{ type: 'text', text: 'Mock reply to: What is a prefix cache?' }],
      stop_reason: 'end_turn',
      usage: { cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });

  it('refuses tool blocks without tool definitions and a tool choice without tools, as the Messages API does', async () => {
    const history = {
      model: 'claude-test',
      max_tokens: 64,
      messages: [
        { role: 'user', content: 'list files' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ls', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'a.ts' }] },
      ],
    };
    const refused = await post('/v1/messages', history);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: {
        type: 'invalid_request_error',
        message: 'Requests which include `tool_use` or `tool_result` blocks must define tools.',
      },
    });
    const choiceAlone = await post('/v1/messages', { ...simpleMessage, tool_choice: { type: 'none' } });
    expect(choiceAlone.status).toBe(400);
    const tools = [{ name: 'ls', input_schema: { type: 'object' } }];
    const accepted = await post('/v1/messages', { ...history, tools, tool_choice: { type: 'none' } });
    expect(accepted.status).toBe(200);
  });

  it('streams Anthropic SSE in the real event order, ping included', async () => {
    const events = await readEvents(await post('/v1/messages', { ...simpleMessage, stream: true }));
    const names = events.map((event) => event.event);
    expect(names[0]).toBe('message_start');
    expect(names).toContain('ping');
    expect(names.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    const text = events
      .filter((event) => event.event === 'content_block_delta')
      .map((event) => (JSON.parse(event.data) as { delta: { text: string } }).delta.text)
      .join('');
    expect(text).toBe('Mock reply to: What is a prefix cache?');
  });

  it('counts tokens without consuming a script step', async () => {
    mock.script([{ kind: 'overloaded' }]);
    const counted = await post('/v1/messages/count_tokens', {
      model: 'claude-test',
      messages: simpleMessage.messages,
    });
    expect(await counted.json()).toEqual({ input_tokens: expect.any(Number) as number });
    expect((await post('/v1/messages', simpleMessage)).status).toBe(529);
  });

  it('accepts the key as x-api-key or Authorization: Bearer, and refuses a request without one', async () => {
    expect(
      (
        await post('/v1/messages', simpleMessage, {
          'content-type': 'application/json',
          authorization: 'Bearer k',
        })
      ).status,
    ).toBe(200);
    const refused = await post('/v1/messages', simpleMessage, { 'content-type': 'application/json' });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key' },
    });
  });

  it('answers OpenAI Chat Completions as JSON', async () => {
    const response = await post(
      '/v1/chat/completions',
      { model: 'gpt-test', messages: [{ role: 'user', content: 'hello' }] },
      openAiHeaders,
    );
    expect(await response.json()).toMatchObject({
      object: 'chat.completion',
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Mock reply to: hello' }, finish_reason: 'stop' },
      ],
      usage: { prompt_tokens: expect.any(Number) as number, prompt_tokens_details: { cached_tokens: 0 } },
    });
  });

  it('streams OpenAI chunks ending in [DONE], with a usage chunk only when asked', async () => {
    const body = { model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'hello there' }] };
    const withUsage = await readEvents(
      await post('/v1/chat/completions', { ...body, stream_options: { include_usage: true } }, openAiHeaders),
    );
    expect(withUsage.at(-1)!.data).toBe('[DONE]');
    expect(JSON.parse(withUsage.at(-2)!.data)).toMatchObject({
      choices: [],
      usage: { completion_tokens: expect.any(Number) as number },
    });
    const withoutUsage = await readEvents(await post('/v1/chat/completions', body, openAiHeaders));
    expect(withoutUsage.some((event) => event.data.includes('"usage"'))).toBe(false);
  });

  it('answers a CORS preflight with 204, the origin, and the requested headers echoed', async () => {
    const response = await fetch(`${mock.url}/v1/messages`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:4173',
        'access-control-request-method': 'POST',
        'access-control-request-headers':
          'x-api-key,anthropic-dangerous-direct-browser-access,x-stainless-os',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:4173');
    expect(response.headers.get('access-control-allow-headers')).toBe(
      'x-api-key,anthropic-dangerous-direct-browser-access,x-stainless-os',
    );
    expect(response.headers.get('access-control-expose-headers')).toContain('retry-after');
  });

  it('records requests with path, headers and body, and forgets them on reset', async () => {
    await post('/v1/messages', simpleMessage);
    const recorded = (await (await fetch(`${mock.url}/__requests`)).json()) as Array<{
      path: string;
      headers: Record<string, string>;
      body: unknown;
    }>;
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      path: '/v1/messages',
      headers: { 'x-api-key': 'test-key' },
      body: simpleMessage,
    });
    await fetch(`${mock.url}/__reset`, { method: 'POST' });
    expect(mock.requests).toHaveLength(0);
  });

  it('writes then reads the Anthropic prefix cache as the conversation grows', async () => {
    const usages: Array<Record<string, number>> = [];
    for (let turns = 1; turns <= 4; turns++) {
      const marked = applyCacheControl(
        conversation(turns),
        { ttl: '5m', nativeLayout: true },
        HERMES_2026_04,
      );
      const { body } = toAnthropicRequest(marked, {
        model: 'claude-test',
        maxTokens: 100,
        stream: false,
        cacheMarkersApplied: true,
      });
      const response = await post('/v1/messages', body);
      usages.push(((await response.json()) as { usage: Record<string, number> }).usage);
    }
    expect(usages[0]!.cache_read_input_tokens).toBe(0);
    expect(usages[0]!.cache_creation_input_tokens).toBeGreaterThan(1024);
    const reads = usages.map((usage) => usage.cache_read_input_tokens!);
    expect(reads[1]).toBeGreaterThan(0);
    expect(reads[2]).toBeGreaterThan(reads[1]!);
    expect(reads[3]).toBeGreaterThan(reads[2]!);
  });

  it('lets a 5-minute cache entry expire', async () => {
    const marked = applyCacheControl(conversation(1), { ttl: '5m', nativeLayout: true }, HERMES_2026_04);
    const { body } = toAnthropicRequest(marked, {
      model: 'claude-test',
      maxTokens: 100,
      stream: false,
      cacheMarkersApplied: true,
    });
    await post('/v1/messages', body);
    const warm = ((await (await post('/v1/messages', body)).json()) as { usage: Record<string, number> })
      .usage;
    expect(warm.cache_read_input_tokens).toBeGreaterThan(0);
    await fetch(`${mock.url}/__clock`, {
      method: 'POST',
      body: JSON.stringify({ advanceMs: 6 * 60 * 1000 }),
    });
    const cold = ((await (await post('/v1/messages', body)).json()) as { usage: Record<string, number> })
      .usage;
    expect(cold.cache_read_input_tokens).toBe(0);
    expect(cold.cache_creation_input_tokens).toBeGreaterThan(0);
  });

  it('reports OpenRouter-style envelope cache reads as cached_tokens', async () => {
    const cached: number[] = [];
    for (let turns = 1; turns <= 3; turns++) {
      const marked = applyCacheControl(
        conversation(turns),
        { ttl: '5m', nativeLayout: false },
        HERMES_2026_04,
      );
      const { body } = toOpenAiChatRequest(marked, {
        model: 'anthropic/claude-test',
        stream: false,
        cacheMarkersApplied: true,
      });
      const usage = (
        (await (await post('/v1/chat/completions', body, openAiHeaders)).json()) as {
          usage: { prompt_tokens_details: { cached_tokens: number } };
        }
      ).usage;
      cached.push(usage.prompt_tokens_details.cached_tokens);
    }
    expect(cached[0]).toBe(0);
    expect(cached[2]).toBeGreaterThan(cached[1]!);
  });

  it('reports the same cache usage in top-level Anthropic-style fields when configured as a proxy', async () => {
    mock.configure({ openAiCacheUsage: 'anthropic-fields' });
    const marked = applyCacheControl(
      [
        { role: 'system', content: LONG_SYSTEM_PROMPT },
        { role: 'user', content: 'Summarise the rules.' },
      ],
      { ttl: '5m', nativeLayout: false },
      HERMES_2026_04,
    );
    const { body } = toOpenAiChatRequest(marked, {
      model: 'anthropic/claude-test',
      stream: false,
      cacheMarkersApplied: true,
    });
    const usages: Array<Record<string, unknown>> = [];
    for (let call = 0; call < 2; call++) {
      const json = (await (await post('/v1/chat/completions', body, openAiHeaders)).json()) as {
        usage: Record<string, unknown>;
      };
      usages.push(json.usage);
    }
    // The first call writes the marked prefix, the second reads it: the same numbers, moved.
    expect(usages[0]).not.toHaveProperty('prompt_tokens_details');
    expect(usages[0]!.cache_read_input_tokens).toBe(0);
    expect(usages[0]!.cache_creation_input_tokens).toBeGreaterThan(1024);
    expect(usages[1]!.cache_read_input_tokens).toBe(usages[0]!.cache_creation_input_tokens);
  });

  it("enforces the context window with each provider's own overflow text", async () => {
    mock.configure({ contextWindow: 1000 });
    const long = 'word '.repeat(2000);
    const anthropic = await post('/v1/messages', {
      ...simpleMessage,
      messages: [{ role: 'user', content: long }],
    });
    expect(anthropic.status).toBe(400);
    expect(((await anthropic.json()) as { error: { message: string } }).error.message).toMatch(
      /^prompt is too long: \d+ tokens > 1000 maximum$/,
    );
    const openAi = await post(
      '/v1/chat/completions',
      { model: 'gpt-test', messages: [{ role: 'user', content: long }] },
      openAiHeaders,
    );
    expect(openAi.status).toBe(400);
    const error = ((await openAi.json()) as { error: { message: string; code: string } }).error;
    expect(error.code).toBe('context_length_exceeded');
    expect(error.message).toMatch(
      /^This model's maximum context length is 1000 tokens\. However, your messages resulted in \d+ tokens\./,
    );
  });

  it("rejects input + max_tokens beyond the window with Anthropic's output-cap text", async () => {
    mock.configure({ contextWindow: 1000 });
    const response = await post('/v1/messages', { ...simpleMessage, max_tokens: 990 });
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(
      /^max_tokens: 990 > context_window: 1000 - input_tokens: (\d+) = available_tokens: \d+$/,
    );
  });

  it('injects scripted failures in order through POST /__script', async () => {
    const scripted = await fetch(`${mock.url}/__script`, {
      method: 'POST',
      body: JSON.stringify([
        { kind: 'rate-limit', retryAfterSeconds: 3 },
        { kind: 'server-error' },
        { kind: 'overloaded' },
        { kind: 'output-cap', maxTokens: 32768, contextWindow: 200000, inputTokens: 190000 },
      ]),
    });
    expect(await scripted.json()).toEqual({ ok: true, queued: 4 });
    const rateLimited = await post('/v1/messages', simpleMessage);
    expect(rateLimited.status).toBe(429);
    expect(rateLimited.headers.get('retry-after')).toBe('3');
    expect((await post('/v1/messages', simpleMessage)).status).toBe(500);
    const overloaded = await post('/v1/messages', simpleMessage);
    expect(overloaded.status).toBe(529);
    expect(await overloaded.json()).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
    const outputCap = await post('/v1/messages', simpleMessage);
    expect(((await outputCap.json()) as { error: { message: string } }).error.message).toBe(
      'max_tokens: 32768 > context_window: 200000 - input_tokens: 190000 = available_tokens: 10000',
    );
    expect((await post('/v1/messages', simpleMessage)).status).toBe(200);
  });

  it('refuses a script that is not a list of known steps', async () => {
    const response = await fetch(`${mock.url}/__script`, {
      method: 'POST',
      body: JSON.stringify([{ kind: 'explode' }]),
    });
    expect(response.status).toBe(400);
  });

  it('hangs on a timeout step until the client aborts', async () => {
    mock.script([{ kind: 'timeout' }]);
    const started = Date.now();
    await expect(
      post('/v1/messages', simpleMessage, anthropicHeaders, AbortSignal.timeout(300)),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect((await post('/v1/messages', simpleMessage)).status).toBe(200);
  });

  it('cuts a stream mid-way, without the final events', async () => {
    mock.script([{ kind: 'stream-cut', afterEvents: 3, mode: 'end' }]);
    const events = await readEvents(await post('/v1/messages', { ...simpleMessage, stream: true }));
    expect(events.map((event) => event.event)).toEqual(['message_start', 'content_block_start', 'ping']);
    mock.script([{ kind: 'stream-cut', afterEvents: 2 }]);
    const cut = await post(
      '/v1/chat/completions',
      { model: 'gpt-test', stream: true, messages: [{ role: 'user', content: 'hello there my friend' }] },
      openAiHeaders,
    );
    await expect(cut.text()).rejects.toThrow();
  });

  it('sends an error event inside a stream', async () => {
    mock.script([{ kind: 'stream-error', afterEvents: 2 }]);
    const events = await readEvents(await post('/v1/messages', { ...simpleMessage, stream: true }));
    expect(events.map((event) => event.event)).toEqual(['message_start', 'content_block_start', 'error']);
    expect(JSON.parse(events[2]!.data)).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
  });

  it('returns scripted tool calls and summaries on both APIs', async () => {
    mock.script([
      { kind: 'reply', toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' } }] },
      { kind: 'reply', text: '## Goal\nShip it.' },
    ]);
    const tool = (await (await post('/v1/messages', simpleMessage)).json()) as Record<string, unknown>;
    expect(tool).toMatchObject({
      stop_reason: 'tool_use',
      content: [{ type: 'tool_use', name: 'read_file', input: { path: 'a.ts' } }],
    });
    const summary = (await (
      await post(
        '/v1/chat/completions',
        { model: 'gpt-test', messages: [{ role: 'user', content: 'summarise' }] },
        openAiHeaders,
      )
    ).json()) as Record<string, unknown>;
    expect(summary).toMatchObject({ choices: [{ message: { content: '## Goal\nShip it.' } }] });
  });
});
