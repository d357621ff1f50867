import { describe, expect, it, vi } from 'vitest';
import { applyCacheControl } from '#core/caching/apply-cache-control.ts';
import type { Message } from '#core/transcript/message.ts';
import type { ToolCallDelta } from '#io/llm/chat-client.ts';
import { isLlmError, type LlmError } from '#io/llm/llm-error.ts';
import { createOpenAiCompatibleClient } from '#io/llm/openai-compatible-client.ts';
import { retryWithBackoff } from '#io/llm/retry-with-backoff.ts';
import { LONG_SYSTEM_PROMPT, useMockProvider } from './mock-provider-fixture.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';

const API_KEY = 'sk-or-test-abcdef0123456789';
const provider = useMockProvider();

function client() {
  return createOpenAiCompatibleClient({
    apiKey: API_KEY,
    baseUrl: `${provider.mock().url}/v1`,
    model: 'anthropic/claude-test',
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

const question: Message[] = [{ role: 'user', content: 'What does include_usage do?' }];

describe('createOpenAiCompatibleClient', () => {
  it('streams a reply over SSE and reads usage from the final chunk', async () => {
    const deltas: string[] = [];
    const response = await client().send(
      { messages: question, maxTokens: 200 },
      { onTextDelta: (text) => deltas.push(text) },
    );
    expect(response.message).toEqual({
      role: 'assistant',
      content: 'Mock reply to: What does include_usage do?',
    });
    expect(deltas.join('')).toBe(response.message.content);
    expect(response.stopReason).toBe('stop');
    expect(response.usage.raw).toMatchObject({ prompt_tokens: expect.any(Number) as number });
    expect(response.usage.canonical.outputTokens).toBeGreaterThan(0);
    const body = provider.mock().requests[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ stream: true, stream_options: { include_usage: true }, max_tokens: 200 });
  });

  it('sends the key as a Bearer token only to the configured base URL', async () => {
    await client().send({ messages: question, maxTokens: 50 });
    expect(provider.mock().requests[0]!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(provider.mock().requests[0]!.path).toBe('/v1/chat/completions');
    expect(provider.urls).toEqual([`${provider.mock().url}/v1/chat/completions`]);
  });

  it('normalises cached_tokens of envelope cache markers into cache reads', async () => {
    const messages = applyCacheControl(
      [
        { role: 'system', content: LONG_SYSTEM_PROMPT },
        { role: 'user', content: 'Summarise the rules.' },
      ],
      { ttl: '5m', nativeLayout: false },
      HERMES_2026_04,
    );
    const first = await client().send({ messages, maxTokens: 100, cacheMarkersApplied: true });
    const second = await client().send({ messages, maxTokens: 100, cacheMarkersApplied: true });
    expect(first.usage.canonical.cacheReadTokens).toBe(0);
    expect(second.usage.canonical.cacheReadTokens).toBeGreaterThan(1024);
    expect(second.usage.canonical.inputTokens).toBe(
      (second.usage.raw!.prompt_tokens as number) -
        second.usage.canonical.cacheReadTokens -
        second.usage.canonical.cacheWriteTokens,
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
    expect(new Set(deltas.map((delta) => delta.index))).toEqual(new Set([0, 1]));
  });

  it('answers without streaming when asked', async () => {
    const response = await client().send({ messages: question, maxTokens: 50, stream: false });
    expect(response.message.content).toBe('Mock reply to: What does include_usage do?');
    expect(provider.mock().requests[0]!.body).not.toHaveProperty('stream_options');
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
    expect(partial.join('')).toBe('Mock reply to: ');
    const ended = await failure(client().send({ messages: question, maxTokens: 50 }));
    expect(ended.kind).toBe('stream-cut');
    expect(ended.message).toContain('[DONE]');
  });

  it('reports an error chunk in the middle of the stream as a retryable http LlmError', async () => {
    provider.mock().script([{ kind: 'stream-error', afterEvents: 2 }]);
    const error = await failure(client().send({ messages: question, maxTokens: 50 }));
    expect(error.kind).toBe('http');
    expect(error.message).toBe('The engine is currently overloaded, please try again later.');
    expect(error.body).toMatchObject({ error: { code: 'server_error' } });
    expect(error.isRetryable).toBe(true);
  });

  it("classifies OpenAI's context_length_exceeded as an overflow", async () => {
    provider.mock().configure({ contextWindow: 300 });
    const error = await failure(
      client().send({ messages: [{ role: 'user', content: 'token '.repeat(2000) }], maxTokens: 50 }),
    );
    expect(error).toMatchObject({ kind: 'http', status: 400 });
    expect(error.classification?.reason).toBe('context_overflow');
    expect(error.message).toContain("This model's maximum context length is 300 tokens");
  });

  it('reports a connection refused as a network LlmError', async () => {
    const offline = createOpenAiCompatibleClient({
      apiKey: API_KEY,
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
      preset: HERMES_2026_04,
    });
    const error = await failure(offline.send({ messages: question, maxTokens: 10 }));
    expect(error.kind).toBe('network');
    expect(error.message).not.toContain(API_KEY);
  });

  it('keeps the key out of errors a server echoes it into', async () => {
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
    expect(error.classification?.reason).toBe('auth');
    expect(
      `${error.message} ${JSON.stringify(error.body)} ${JSON.stringify(error.classification)}`,
    ).not.toContain(API_KEY);
  });
});
