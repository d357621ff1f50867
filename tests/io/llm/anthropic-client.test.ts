import { describe, expect, it, vi } from 'vitest';
import { applyCacheControl } from '#core/caching/apply-cache-control.ts';
import type { Message } from '#core/transcript/message.ts';
import { createAnthropicClient } from '#io/llm/anthropic-client.ts';
import type { ToolCallDelta } from '#io/llm/chat-client.ts';
import { isLlmError, type LlmError } from '#io/llm/llm-error.ts';
import { retryWithBackoff } from '#io/llm/retry-with-backoff.ts';
import { LONG_SYSTEM_PROMPT, useMockProvider } from './mock-provider-fixture.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const API_KEY = 'sk-ant-test-0123456789abcdef';
const provider = useMockProvider();

function client() {
  return createAnthropicClient({
    apiKey: API_KEY,
    baseUrl: provider.mock().url,
    model: 'claude-test',
    preset: HERMES_2026_04,
    fetch: provider.recordingFetch,
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

const question: Message[] = [{ role: 'user', content: 'Explain prompt caching briefly.' }];

describe('createAnthropicClient', () => {
  it('streams a reply, reporting text deltas that add up to the message', async () => {
    const deltas: string[] = [];
    const response = await client().send(
      { messages: question, maxTokens: 200 },
      { onTextDelta: (text) => deltas.push(text) },
    );
    expect(response.message).toEqual({
      role: 'assistant',
      content: 'Mock reply to: Explain prompt caching briefly.',
    });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(response.message.content);
    expect(response.stopReason).toBe('stop');
    expect(response.rawStopReason).toBe('end_turn');
    expect(response.usage.canonical.outputTokens).toBeGreaterThan(0);
  });

  it('sends the browser-access header and the key, only to the configured host', async () => {
    await client().send({ messages: question, maxTokens: 50, stream: false });
    const [request] = provider.mock().requests;
    expect(request!.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    const sentKey =
      request!.headers['x-api-key'] ?? String(request!.headers.authorization).replace(/^Bearer /, '');
    expect(sentKey).toBe(API_KEY);
    expect(provider.urls.length).toBeGreaterThan(0);
    expect(provider.urls.every((url) => url.startsWith(`${provider.mock().url}/`))).toBe(true);
  });

  it('normalises usage with cache reads and writes across turns', async () => {
    const messages: Message[] = [
      { role: 'system', content: LONG_SYSTEM_PROMPT },
      { role: 'user', content: `First question ${'context '.repeat(100)}` },
    ];
    const marked = applyCacheControl(messages, { ttl: '5m', nativeLayout: true }, HERMES_2026_04);
    const first = await client().send({ messages: marked, maxTokens: 100, cacheMarkersApplied: true });
    const second = await client().send({ messages: marked, maxTokens: 100, cacheMarkersApplied: true });
    expect(first.usage.canonical.cacheWriteTokens).toBeGreaterThan(1024);
    expect(first.usage.canonical.cacheReadTokens).toBe(0);
    expect(second.usage.canonical.cacheReadTokens).toBe(first.usage.canonical.cacheWriteTokens);
    expect(second.usage.raw).toMatchObject({
      cache_read_input_tokens: second.usage.canonical.cacheReadTokens,
    });
  });

  it('streams tool calls as deltas and returns them with JSON string arguments', async () => {
    provider
      .mock()
      .script([
        { kind: 'reply', toolCalls: [{ name: 'read_file', arguments: { path: 'src/main.ts', limit: 200 } }] },
      ]);
    const deltas: ToolCallDelta[] = [];
    const response = await client().send(
      { messages: question, maxTokens: 200 },
      { onToolCallDelta: (delta) => deltas.push(delta) },
    );
    expect(response.stopReason).toBe('tool-calls');
    expect(response.message.tool_calls).toEqual([
      {
        id: expect.stringMatching(/^toolu_mock_/) as string,
        type: 'function',
        function: { name: 'read_file', arguments: '{"path":"src/main.ts","limit":200}' },
      },
    ]);
    expect(deltas[0]).toMatchObject({ index: 0, name: 'read_file' });
    expect(deltas.map((delta) => delta.argumentsDelta).join('')).toBe('{"path":"src/main.ts","limit":200}');
  });

  it('retries a 429 after its retry-after and then succeeds', async () => {
    provider.mock().script([{ kind: 'rate-limit', retryAfterSeconds: 2 }]);
    const sleep = vi.fn(async () => {});
    const response = await retryWithBackoff(() => client().send({ messages: question, maxTokens: 50 }), {
      random: () => 0.5,
      sleep,
    });
    expect(sleep).toHaveBeenCalledExactlyOnceWith(2000, undefined);
    expect(response.message.content).toBe('Mock reply to: Explain prompt caching briefly.');
    expect(provider.mock().requests).toHaveLength(2);
  });

  it('reports a cut stream as a stream-cut LlmError, whether the connection drops or the body just ends', async () => {
    provider.mock().script([
      { kind: 'stream-cut', afterEvents: 4 },
      { kind: 'stream-cut', afterEvents: 4, mode: 'end' },
    ]);
    const dropped = await failure(client().send({ messages: question, maxTokens: 50 }));
    expect(dropped.kind).toBe('stream-cut');
    expect(dropped.classification?.reason).toBe('timeout');
    expect(dropped.isRetryable).toBe(true);
    const ended = await failure(client().send({ messages: question, maxTokens: 50 }));
    expect(ended.kind).toBe('stream-cut');
    expect(ended.message).toContain('message_stop');
  });

  it('reports an error event in the middle of the stream as an overloaded http LlmError', async () => {
    provider.mock().script([{ kind: 'stream-error', afterEvents: 4 }]);
    const error = await failure(client().send({ messages: question, maxTokens: 50 }));
    expect(error).toMatchObject({ kind: 'http', status: 529 });
    expect(error.body).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(error.classification?.reason).toBe('overloaded');
    expect(error.isRetryable).toBe(true);
  });

  it('classifies an overflow from the error body and keeps status and body', async () => {
    provider.mock().configure({ contextWindow: 500 });
    const error = await failure(
      client().send({ messages: [{ role: 'user', content: 'word '.repeat(3000) }], maxTokens: 50 }),
    );
    expect(error).toMatchObject({ kind: 'http', status: 400, provider: 'anthropic' });
    expect(error.classification).toMatchObject({ reason: 'context_overflow', shouldCompress: true });
    expect(error.body).toMatchObject({ error: { type: 'invalid_request_error' } });
  });

  it('reports an overloaded 529 with its classification', async () => {
    provider.mock().script([{ kind: 'overloaded' }]);
    const error = await failure(client().send({ messages: question, maxTokens: 50, stream: false }));
    expect(error.status).toBe(529);
    expect(error.classification?.reason).toBe('overloaded');
  });

  it('tells a cancel from a timeout', async () => {
    provider.mock().script([{ kind: 'timeout' }, { kind: 'timeout' }]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(
      (await failure(client().send({ messages: question, maxTokens: 50 }, undefined, controller.signal)))
        .kind,
    ).toBe('aborted');
    expect(
      (
        await failure(
          client().send({ messages: question, maxTokens: 50 }, undefined, AbortSignal.timeout(100)),
        )
      ).kind,
    ).toBe('timeout');
  });

  it('counts tokens with the free count_tokens endpoint', async () => {
    const tokens = await client().countTokens!({ messages: question, systemPrompt: 'Be brief.' });
    expect(tokens).toBeGreaterThan(0);
    expect(provider.mock().requests[0]!.path).toBe('/v1/messages/count_tokens');
    expect(provider.mock().requests[0]!.body).not.toHaveProperty('max_tokens');
  });

  it('never puts the key in an error, even when the server echoes it', async () => {
    provider.mock().script([
      {
        kind: 'error',
        status: 403,
        body: {
          type: 'error',
          error: { type: 'permission_error', message: `key ${API_KEY} is not allowed` },
        },
      },
    ]);
    const error = await failure(client().send({ messages: question, maxTokens: 50 }));
    expect(error.status).toBe(403);
    expect(
      `${error.message} ${JSON.stringify(error.body)} ${JSON.stringify(error.classification)}`,
    ).not.toContain(API_KEY);
  });

  it('tolerates a base URL that ends in /v1', async () => {
    const trailing = createAnthropicClient({
      apiKey: API_KEY,
      baseUrl: `${provider.mock().url}/v1/`,
      model: 'claude-test',
      preset: HERMES_2026_07,
    });
    await trailing.send({ messages: question, maxTokens: 50, stream: false });
    expect(provider.mock().requests[0]!.path).toBe('/v1/messages');
  });

  it('reports a refused connection as a network error, with its cause, while the browser is online', async () => {
    const error = await failure(unreachable(() => true).send({ messages: question, maxTokens: 10 }));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/^Connection error: /);
    expect(error.message).not.toBe('Connection error: Connection error.');
    expect(error.classification?.retryable).toBe(true);
  });

  it('says plainly that the browser is offline when the request fails without a network', async () => {
    const error = await failure(unreachable(() => false).send({ messages: question, maxTokens: 10 }));
    expect(error.kind).toBe('offline');
    expect(error.message).toMatch(
      /^You are offline: Anthropic cannot be reached without a network connection/,
    );
    expect(error.isRetryable).toBe(false);
    expect(error.classification).toBeUndefined();
  });
});

/** A client whose requests fail like a fetch with no route to the host. */
function unreachable(isOnline: () => boolean) {
  return createAnthropicClient({
    apiKey: API_KEY,
    baseUrl: 'http://127.0.0.1:9',
    model: 'claude-test',
    preset: HERMES_2026_04,
    isOnline,
  });
}
