import { describe, expect, it, vi } from 'vitest';
import { applyCacheControl } from '#core/caching/apply-cache-control.ts';
import type { Message } from '#core/transcript/message.ts';
import type { ToolCallDelta } from '#io/llm/chat-client.ts';
import { isLlmError, type LlmError } from '#io/llm/llm-error.ts';
import { createOpenAiCompatibleClient } from '#io/llm/openai-compatible-client.ts';
import { isTransientLlmError, retryWithBackoff } from '#io/llm/retry-with-backoff.ts';
import { LONG_SYSTEM_PROMPT, useMockProvider } from './mock-provider-fixture.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';

const API_KEY = 'sk-or-test-abcdef0123456789';
const provider = useMockProvider();

function client(overrides: { fetch?: typeof fetch; isOnline?: () => boolean } = {}) {
  return createOpenAiCompatibleClient({
    apiKey: API_KEY,
    baseUrl: `${provider.mock().url}/v1`,
    model: 'anthropic/claude-test',
    preset: HERMES_2026_04,
    fetch: provider.recordingFetch,
    ...overrides,
  });
}

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (error) {
    if (isLlmError(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

const instantRetries = { random: () => 0, sleep: async () => {} };

const question: Message[] = [{ role: 'user', content: 'What does include_usage do?' }];
const REPLY = 'Mock reply to: What does include_usage do?';

const cacheMarked = (): Message[] =>
  applyCacheControl(
    [
      { role: 'system', content: LONG_SYSTEM_PROMPT },
      { role: 'user', content: 'Summarise the rules.' },
    ],
    { ttl: '5m', nativeLayout: false },
    HERMES_2026_04,
  );

/** A `fetch` answering every request with this SSE text, for wire shapes the mock never sends. */
function eventStreamFetch(text: string): typeof fetch {
  return async () => new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

describe('createOpenAiCompatibleClient: replies', () => {
  it('streams a reply over SSE and reads usage from the final chunk', async () => {
    const deltas: string[] = [];
    const response = await client().send(
      { messages: question, maxTokens: 200 },
      { onTextDelta: (text) => deltas.push(text) },
    );
    expect(response.message).toEqual({ role: 'assistant', content: REPLY });
    // The mock streams three words per chunk: "Mock reply to: " / "What does include_usage " / "do?".
    expect(deltas).toEqual(['Mock reply to: ', 'What does include_usage ', 'do?']);
    expect(response.stopReason).toBe('stop');
    expect(response.usage.raw).toMatchObject({ prompt_tokens: expect.any(Number) as number });
    expect(response.usage.canonical.outputTokens).toBe(response.usage.raw!.completion_tokens);
    const body = provider.mock().requests[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ stream: true, stream_options: { include_usage: true }, max_tokens: 200 });
  });

  it('goes through the openai SDK, with the key as a Bearer token only to the configured base URL', async () => {
    await client().send({ messages: question, maxTokens: 50 });
    const sent = provider.mock().requests[0]!;
    expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent.path).toBe('/v1/chat/completions');
    expect(provider.urls).toEqual([`${provider.mock().url}/v1/chat/completions`]);
    // The SDK's own headers; nothing read from the environment (organisation, project).
    expect(sent.headers['x-stainless-lang']).toBe('js');
    expect(sent.headers['openai-organization']).toBeUndefined();
    expect(sent.headers['openai-project']).toBeUndefined();
  });

  it('sends OpenRouter attribution headers to OpenRouter only', async () => {
    const seen: Array<{ url: string; headers: Headers }> = [];
    const capture: typeof fetch = async (input, init) => {
      seen.push({
        url: input instanceof Request ? input.url : String(input),
        headers: new Headers(init?.headers),
      });
      return new Response('{}', { status: 500 });
    };
    for (const baseUrl of ['https://openrouter.ai/api/v1', `${provider.mock().url}/v1`]) {
      const attributed = createOpenAiCompatibleClient({
        apiKey: API_KEY,
        baseUrl,
        model: 'm',
        preset: HERMES_2026_04,
        appReferer: 'https://context-lab.example',
        appTitle: 'Context Lab',
        fetch: capture,
      });
      await failure(attributed.send({ messages: question, maxTokens: 10 }));
    }
    expect(seen.map((request) => request.url)).toEqual([
      'https://openrouter.ai/api/v1/chat/completions',
      `${provider.mock().url}/v1/chat/completions`,
    ]);
    expect(seen[0]!.headers.get('http-referer')).toBe('https://context-lab.example');
    expect(seen[0]!.headers.get('x-title')).toBe('Context Lab');
    expect(seen[1]!.headers.get('http-referer')).toBeNull();
    expect(seen[1]!.headers.get('x-title')).toBeNull();
  });

  it('normalises cached_tokens of envelope cache markers into cache reads', async () => {
    const messages = cacheMarked();
    const first = await client().send({ messages, maxTokens: 100, cacheMarkersApplied: true });
    const second = await client().send({ messages, maxTokens: 100, cacheMarkersApplied: true });
    expect(first.usage.canonical.cacheReadTokens).toBe(0);
    expect(second.usage.canonical.cacheReadTokens).toBeGreaterThan(1024);
    expect(second.usage.canonical.cacheReadTokens).toBe(
      (second.usage.raw!.prompt_tokens_details as { cached_tokens: number }).cached_tokens,
    );
    expect(second.usage.canonical.inputTokens).toBe(
      (second.usage.raw!.prompt_tokens as number) -
        second.usage.canonical.cacheReadTokens -
        second.usage.canonical.cacheWriteTokens,
    );
  });

  it("reads a proxy's top-level cache_read_input_tokens and cache_creation_input_tokens from the stream", async () => {
    provider.mock().configure({ openAiCacheUsage: 'anthropic-fields' });
    const messages = cacheMarked();
    const first = await client().send({ messages, maxTokens: 100, cacheMarkersApplied: true });
    const second = await client().send({ messages, maxTokens: 100, cacheMarkersApplied: true });
    expect(first.usage.raw).not.toHaveProperty('prompt_tokens_details');
    expect(first.usage.canonical.cacheWriteTokens).toBe(first.usage.raw!.cache_creation_input_tokens);
    expect(first.usage.canonical.cacheWriteTokens).toBeGreaterThan(1024);
    expect(second.usage.canonical.cacheReadTokens).toBe(second.usage.raw!.cache_read_input_tokens);
    expect(second.usage.canonical.cacheReadTokens).toBe(first.usage.canonical.cacheWriteTokens);
    expect(second.usage.canonical.inputTokens).toBe(
      (second.usage.raw!.prompt_tokens as number) - second.usage.canonical.cacheReadTokens,
    );
  });

  it('rebuilds streamed tool calls by index', async () => {
    provider.mock().script([
      {
        kind: 'reply',
        toolCalls: [
          { name: 'ls', arguments: { path: '.' } },
          { name: 'read', arguments: { path: 'README.md' } },
        ],
      },
    ]);
    const deltas: ToolCallDelta[] = [];
    const response = await client().send(
      { messages: question, maxTokens: 200 },
      { onToolCallDelta: (delta) => deltas.push(delta) },
    );
    expect(response.stopReason).toBe('tool-calls');
    expect(response.message.tool_calls?.map((call) => [call.function.name, call.function.arguments])).toEqual(
      [
        ['ls', '{"path":"."}'],
        ['read', '{"path":"README.md"}'],
      ],
    );
    const ids = response.message.tool_calls?.map((call) => call.id) ?? [];
    expect(ids).toEqual([expect.stringMatching(/^call_mock_/), expect.stringMatching(/^call_mock_/)]);
    expect(new Set(ids).size).toBe(2);
    expect(new Set(deltas.map((delta) => delta.index))).toEqual(new Set([0, 1]));
  });

  it('answers without streaming when asked', async () => {
    const response = await client().send({ messages: question, maxTokens: 50, stream: false });
    expect(response.message.content).toBe(REPLY);
    expect(response.usage.canonical.outputTokens).toBeGreaterThan(0);
    expect(provider.mock().requests[0]!.body).toMatchObject({ stream: false });
    expect(provider.mock().requests[0]!.body).not.toHaveProperty('stream_options');
  });

  it('takes a plain JSON answer from a server that ignores stream: true', async () => {
    const completion = {
      id: 'chatcmpl-plain',
      object: 'chat.completion',
      model: 'local-model',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Plain JSON.' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
    };
    provider.mock().script([{ kind: 'error', status: 200, body: completion }]);
    const deltas: string[] = [];
    const response = await client().send(
      { messages: question, maxTokens: 50 },
      { onTextDelta: (text) => deltas.push(text) },
    );
    expect(response.message.content).toBe('Plain JSON.');
    expect(response.model).toBe('local-model');
    expect(response.usage.canonical).toMatchObject({ inputTokens: 12, outputTokens: 3 });
    expect(deltas).toEqual([]);
  });

  it('keeps a reply that is whole (finish_reason and usage) when the stream closes before [DONE]', async () => {
    // Frames: role, 3 text chunks, finish_reason, usage, [DONE]; the first six arrive.
    provider.mock().script([{ kind: 'stream-cut', afterEvents: 6, mode: 'end' }]);
    const response = await client().send({ messages: question, maxTokens: 50 });
    expect(response.message.content).toBe(REPLY);
    expect(response.stopReason).toBe('stop');
    expect(response.usage.canonical.outputTokens).toBeGreaterThan(0);
  });
});

describe('createOpenAiCompatibleClient: errors', () => {
  it('maps a 429 with retry-after to a retryable rate_limit LlmError, without retrying inside the SDK', async () => {
    provider.mock().script([{ kind: 'rate-limit', retryAfterSeconds: 2 }]);
    const error = await failure(client().send({ messages: question, maxTokens: 50 }));
    expect(error).toMatchObject({ kind: 'http', status: 429, retryAfterMs: 2000 });
    expect(error.message).toBe('429 Rate limit reached for requests. Please try again in 2s.');
    expect(error.classification?.reason).toBe('rate_limit');
    expect(isTransientLlmError(error)).toBe(true);
    expect(provider.mock().requests).toHaveLength(1);
  });

  it('retries a 429 after its retry-after and then succeeds', async () => {
    provider.mock().script([{ kind: 'rate-limit', retryAfterSeconds: 1 }]);
    const sleep = vi.fn(async () => {});
    const retries: number[] = [];
    const response = await retryWithBackoff(() => client().send({ messages: question, maxTokens: 50 }), {
      random: () => 0,
      sleep,
      onRetry: (event) => retries.push(event.delayMs),
    });
    expect(retries).toEqual([1000]);
    expect(response.stopReason).toBe('stop');
    expect(provider.mock().requests).toHaveLength(2);
  });

  it('maps 5xx answers to retryable server errors, retried by retryWithBackoff with backoff', async () => {
    provider.mock().script([{ kind: 'server-error', status: 500 }, { kind: 'overloaded' }]);
    const errors: LlmError[] = [];
    const delays: number[] = [];
    const response = await retryWithBackoff(() => client().send({ messages: question, maxTokens: 50 }), {
      ...instantRetries,
      onRetry: (event) => {
        delays.push(event.delayMs);
        if (isLlmError(event.error)) errors.push(event.error);
      },
    });
    expect(errors.map((error) => [error.kind, error.status, error.classification?.reason])).toEqual([
      ['http', 500, 'server_error'],
      ['http', 503, 'overloaded'],
    ]);
    expect(errors[0]!.message).toBe(
      '500 The server had an error while processing your request. Sorry about that!',
    );
    // No retry-after: equal jitter with random 0 is half of 1 s, then half of 2 s.
    expect(delays).toEqual([500, 1000]);
    expect(response.message.content).toBe(REPLY);
    expect(provider.mock().requests).toHaveLength(3);
  });

  it("classifies OpenAI's context_length_exceeded as an overflow", async () => {
    provider.mock().configure({ contextWindow: 300 });
    const error = await failure(
      client().send({ messages: [{ role: 'user', content: 'token '.repeat(2000) }], maxTokens: 50 }),
    );
    expect(error).toMatchObject({ kind: 'http', status: 400 });
    expect(error.classification?.reason).toBe('context_overflow');
    expect(error.message).toContain("This model's maximum context length is 300 tokens");
    expect(error.body).toMatchObject({ error: { code: 'context_length_exceeded' } });
    expect(isTransientLlmError(error)).toBe(false);
  });

  it('keeps an error body without an `error` member (vLLM style), so its overflow text is classified', async () => {
    const message =
      "This model's maximum context length is 4096 tokens. However, you requested 5120 tokens (5000 in the messages, 120 in the completion).";
    provider.mock().script([
      {
        kind: 'error',
        status: 400,
        body: { object: 'error', message, type: 'BadRequestError', param: null, code: 400 },
      },
    ]);
    const error = await failure(client().send({ messages: question, maxTokens: 120 }));
    expect(error).toMatchObject({ kind: 'http', status: 400, message: `400 ${message}` });
    expect(error.body).toMatchObject({ object: 'error', message });
    expect(error.classification?.reason).toBe('context_overflow');
  });

  it('keeps a plain-text error body as the message', async () => {
    const failing: typeof fetch = async () =>
      new Response('upstream connect error', { status: 502, headers: { 'content-type': 'text/plain' } });
    const error = await failure(client({ fetch: failing }).send({ messages: question, maxTokens: 10 }));
    expect(error).toMatchObject({ kind: 'http', status: 502, message: '502 upstream connect error' });
    expect(error.body).toBe('upstream connect error');
    expect(isTransientLlmError(error)).toBe(true);
  });

  it('maps a 401 to a non-retryable auth error and keeps the key out of it when the server echoes it', async () => {
    provider.mock().script([
      {
        kind: 'error',
        status: 401,
        body: {
          error: { message: `Incorrect API key provided: ${API_KEY}`, type: 'invalid_request_error' },
        },
      },
    ]);
    const error = await failure(client().send({ messages: question, maxTokens: 50 }));
    expect(error).toMatchObject({ kind: 'http', status: 401 });
    expect(error.classification?.reason).toBe('auth');
    expect(isTransientLlmError(error)).toBe(false);
    expect(error.message).toBe('401 Incorrect API key provided: [redacted]');
    expect(
      `${error.message} ${JSON.stringify(error.body)} ${JSON.stringify(error.classification)}`,
    ).not.toContain(API_KEY);
  });

  it('reports a dropped or truncated stream as a stream-cut LlmError', async () => {
    provider.mock().script([
      { kind: 'stream-cut', afterEvents: 2 },
      { kind: 'stream-cut', afterEvents: 2, mode: 'end' },
    ]);
    const partial: string[] = [];
    const dropped = await failure(
      client().send({ messages: question, maxTokens: 50 }, { onTextDelta: (text) => partial.push(text) }),
    );
    expect(dropped.kind).toBe('stream-cut');
    expect(dropped.isRetryable).toBe(true);
    expect(isTransientLlmError(dropped)).toBe(true);
    expect(partial.join('')).toBe('Mock reply to: ');
    const ended = await failure(client().send({ messages: question, maxTokens: 50 }));
    expect(ended.kind).toBe('stream-cut');
    expect(ended.message).toContain('finish_reason');
  });

  it('reports an error chunk in the middle of the stream as a retryable http LlmError', async () => {
    provider.mock().script([{ kind: 'stream-error', afterEvents: 2 }]);
    const error = await failure(client().send({ messages: question, maxTokens: 50 }));
    expect(error.kind).toBe('http');
    expect(error.message).toBe('The engine is currently overloaded, please try again later.');
    expect(error.body).toMatchObject({ error: { code: 'server_error' } });
    expect(error.isRetryable).toBe(true);
  });

  it('takes the status of a mid-stream error chunk from its numeric code (OpenRouter)', async () => {
    const error = await failure(
      client({
        fetch: eventStreamFetch(
          'data: {"id":"gen-1","choices":[{"index":0,"delta":{"content":"Hal"}}]}\n\n' +
            'data: {"error":{"code":502,"message":"Provider returned error"}}\n\n',
        ),
      }).send({ messages: question, maxTokens: 50 }),
    );
    expect(error).toMatchObject({ kind: 'http', status: 502, message: 'Provider returned error' });
  });

  it('fails a stream with a chunk that is not JSON as an invalid response', async () => {
    const error = await failure(
      client({
        fetch: eventStreamFetch(
          'data: {"id":"x","choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\ndata: {not json\n\n',
        ),
      }).send({ messages: question, maxTokens: 50 }),
    );
    expect(error.kind).toBe('invalid-response');
    expect(error.message).toContain('not JSON');
  });

  it('reports a connection refused as a network LlmError', async () => {
    const offline = createOpenAiCompatibleClient({
      apiKey: API_KEY,
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
      preset: HERMES_2026_04,
      isOnline: () => true,
    });
    const error = await failure(offline.send({ messages: question, maxTokens: 10 }));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/^Connection error: /);
    expect(error.message).not.toContain(API_KEY);
    expect(isTransientLlmError(error)).toBe(true);
  });

  it('says plainly that the browser is offline when a request fails without a network, and is not retried', async () => {
    const refused: typeof fetch = async () => {
      throw new TypeError('Failed to fetch');
    };
    const error = await failure(
      client({ fetch: refused, isOnline: () => false }).send({ messages: question, maxTokens: 10 }),
    );
    expect(error.kind).toBe('offline');
    expect(error.message).toMatch(/^You are offline: the OpenAI-compatible endpoint cannot be reached/);
    expect(error.classification).toBeUndefined();
    expect(error.isRetryable).toBe(false);
    expect(isTransientLlmError(error)).toBe(false);
  });
});

describe('createOpenAiCompatibleClient: cancelling', () => {
  it('reports the caller cancelling a request that hangs as aborted', async () => {
    provider.mock().script([{ kind: 'timeout' }]);
    const controller = new AbortController();
    const pending = failure(
      client().send({ messages: question, maxTokens: 50 }, undefined, controller.signal),
    );
    await vi.waitFor(() => expect(provider.mock().requests).toHaveLength(1));
    controller.abort();
    const error = await pending;
    expect(error.kind).toBe('aborted');
    expect(error.message).toBe('Request cancelled');
    expect(isTransientLlmError(error)).toBe(false);
  });

  it('reports a deadline that passes (a TimeoutError abort) as a retryable timeout', async () => {
    provider.mock().script([{ kind: 'timeout' }]);
    const error = await failure(
      client().send({ messages: question, maxTokens: 50 }, undefined, AbortSignal.timeout(150)),
    );
    expect(error.kind).toBe('timeout');
    expect(isTransientLlmError(error)).toBe(true);
  });

  it('stops a stream mid-reply when the caller cancels, after the deltas already received', async () => {
    provider.mock().script([{ kind: 'stream-cut', afterEvents: 2, mode: 'stall' }]);
    const controller = new AbortController();
    const partial: string[] = [];
    const error = await failure(
      client().send(
        { messages: question, maxTokens: 50 },
        {
          onTextDelta: (text) => {
            partial.push(text);
            controller.abort();
          },
        },
        controller.signal,
      ),
    );
    expect(error.kind).toBe('aborted');
    expect(partial).toEqual(['Mock reply to: ']);
  });

  it('refuses at once when the signal is already aborted, sending nothing', async () => {
    const error = await failure(
      client().send({ messages: question, maxTokens: 50 }, undefined, AbortSignal.abort()),
    );
    expect(error.kind).toBe('aborted');
    expect(provider.mock().requests).toHaveLength(0);
  });
});
