import { describe, expect, it } from 'vitest';
import { useMockProvider } from '#tests/io/llm/mock-provider-fixture.ts';
import { API_KEY, chatRequests, CLAUDE_MODEL, createRuntimeFixture, noAbort } from './runtime-fixture.ts';

const provider = useMockProvider();

describe('ConversationRuntime: one turn', () => {
  it('streams a reply, stores both messages and records the usage with its cost', async () => {
    const fixture = createRuntimeFixture({ label: 'turn', mock: provider.mock() });
    const result = await fixture.runtime.sendUserMessage('Hello, what is prompt caching?', noAbort());

    expect(result).toEqual({ outcome: 'completed', message: null });
    const deltas = fixture.eventsOf('text-delta').map((event) => event.text);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Mock reply to: Hello, what is prompt caching?');

    const sessionId = fixture.runtime.sessionId!;
    expect(await fixture.repository.loadMessages(sessionId)).toEqual([
      { role: 'user', content: 'Hello, what is prompt caching?' },
      { role: 'assistant', content: 'Mock reply to: Hello, what is prompt caching?' },
    ]);
    const session = (await fixture.repository.getSession(sessionId))!;
    const [usage] = fixture.eventsOf('usage');
    expect(usage!.purpose).toBe('chat');
    expect(usage!.promptTokens).toBeGreaterThan(0);
    expect(session.inputTokens + session.cacheReadTokens + session.cacheWriteTokens).toBe(
      usage!.promptTokens,
    );
    expect(session.outputTokens).toBe(usage!.usage.outputTokens);
    expect(session.apiCallCount).toBe(1);
    // Sonnet 4 at $3 / $15 per million (2026-04 snapshot).
    const expectedCost =
      (usage!.usage.inputTokens * 3 +
        usage!.usage.outputTokens * 15 +
        usage!.usage.cacheReadTokens * 0.3 +
        usage!.usage.cacheWriteTokens * 3.75) /
      1e6;
    expect(session.estimatedCostUsd).toBeCloseTo(expectedCost, 12);
    expect(usage!.costUsd).toBeCloseTo(expectedCost, 12);
    // The compressor read the real prompt count.
    expect(fixture.runtime.compressorState.lastPromptTokens).toBe(usage!.promptTokens);
    expect(session.compressorState?.lastPromptTokens).toBe(usage!.promptTokens);
    expect(fixture.eventsOf('turn-end').map((event) => event.outcome)).toEqual(['completed']);
  });

  it('builds the request with the system prompt, cache markers, tool schemas and the browser header', async () => {
    const fixture = createRuntimeFixture({
      label: 'request',
      mock: provider.mock(),
      systemPrompt: 'Be brief.',
    });
    await fixture.runtime.sendUserMessage('first', noAbort());
    await fixture.runtime.sendUserMessage('second', noAbort());
    const [, second] = chatRequests(provider.mock());
    const body = second!.body as {
      system: Array<{ text: string; cache_control?: unknown }>;
      messages: Array<{ role: string; content: Array<{ cache_control?: unknown }> }>;
      tools: Array<{ name: string }>;
      model: string;
    };
    expect(body.model).toBe(CLAUDE_MODEL);
    expect(body.system).toEqual([{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }]);
    // system_and_3: the system prompt and the last three messages carry a breakpoint.
    const marked = body.messages.filter((message) => message.content.some((block) => block.cache_control));
    expect(marked).toHaveLength(3);
    expect(body.tools.map((tool) => tool.name)).toEqual(['read_persisted_output', 'search_sessions']);
    const request = provider.mock().requests.at(-1)!;
    expect(request.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    expect(String(request.headers.authorization)).toBe(`Bearer ${API_KEY}`);
  });

  it('sends no cache markers when caching is switched off', async () => {
    const fixture = createRuntimeFixture({ label: 'no-cache', mock: provider.mock(), promptCaching: false });
    await fixture.runtime.sendUserMessage('hello', noAbort());
    expect(JSON.stringify(chatRequests(provider.mock())[0]!.body)).not.toContain('cache_control');
  });

  it('waits out a 429 and then succeeds', async () => {
    const fixture = createRuntimeFixture({ label: 'rate-limit', mock: provider.mock() });
    provider.mock().script([{ kind: 'rate-limit', retryAfterSeconds: 2 }]);
    const result = await fixture.runtime.sendUserMessage('hi', noAbort());
    expect(result.outcome).toBe('completed');
    const [retry] = fixture.eventsOf('retry');
    expect(retry).toMatchObject({ attempt: 1, delayMs: 2000 });
    expect(retry!.message).toContain('429');
    expect(fixture.sleeps).toEqual([2000]);
    expect(chatRequests(provider.mock())).toHaveLength(2);
    expect(await fixture.repository.loadMessages(fixture.runtime.sessionId!)).toHaveLength(2);
  });

  it('retries an output-cap error with a lower max_tokens and compresses nothing', async () => {
    const fixture = createRuntimeFixture({
      label: 'output-cap',
      mock: provider.mock(),
      maxOutputTokens: 4096,
    });
    provider
      .mock()
      .script([{ kind: 'output-cap', maxTokens: 4096, contextWindow: 32_000, inputTokens: 30_000 }]);
    const result = await fixture.runtime.sendUserMessage('hi', noAbort());
    expect(result.outcome).toBe('completed');
    const requests = chatRequests(provider.mock());
    expect(requests.map((request) => request.body.max_tokens)).toEqual([4096, 2000 - 64]);
    expect(fixture.eventsOf('recovery')).toEqual([
      expect.objectContaining({ action: 'retry-with-max-tokens', maxTokens: 1936 }),
    ]);
    expect(fixture.eventsOf('compaction-start')).toEqual([]);
    // The lower cap was for that turn only.
    await fixture.runtime.sendUserMessage('again', noAbort());
    expect(chatRequests(provider.mock()).at(-1)!.body.max_tokens).toBe(4096);
  });

  it('reports a stream that keeps breaking, keeps the user message, and Retry answers it', async () => {
    const fixture = createRuntimeFixture({ label: 'stream-cut', mock: provider.mock() });
    provider.mock().script([
      { kind: 'stream-cut', afterEvents: 4 },
      { kind: 'stream-cut', afterEvents: 4 },
      { kind: 'stream-cut', afterEvents: 4 },
    ]);
    const result = await fixture.runtime.sendUserMessage('tell me a story', noAbort());
    expect(result.outcome).toBe('failed');
    expect(result.message).toMatch(/cut off|incomplete|broken/i);
    expect(fixture.eventsOf('retry')).toHaveLength(2);
    expect(fixture.eventsOf('stream-reset').length).toBeGreaterThanOrEqual(3);
    const sessionId = fixture.runtime.sessionId!;
    // No half-written reply: the conversation ends with the user message.
    expect(await fixture.repository.loadMessages(sessionId)).toEqual([
      { role: 'user', content: 'tell me a story' },
    ]);

    const retried = await fixture.runtime.retry(noAbort());
    expect(retried.outcome).toBe('completed');
    expect(await fixture.repository.loadMessages(sessionId)).toEqual([
      { role: 'user', content: 'tell me a story' },
      { role: 'assistant', content: 'Mock reply to: tell me a story' },
    ]);
  });

  it('recovers from one cut stream by retrying', async () => {
    const fixture = createRuntimeFixture({ label: 'stream-cut-once', mock: provider.mock() });
    provider.mock().script([{ kind: 'stream-cut', afterEvents: 4 }]);
    const result = await fixture.runtime.sendUserMessage('hello', noAbort());
    expect(result.outcome).toBe('completed');
    expect(fixture.eventsOf('stream-reset')).toHaveLength(1);
    expect(fixture.eventsOf('retry')).toHaveLength(1);
  });

  it('cancels mid-stream, keeps the user message and drops the partial reply', async () => {
    const fixture = createRuntimeFixture({ label: 'cancel', mock: provider.mock() });
    const controller = new AbortController();
    fixture.runtime.events.subscribe((event) => {
      if (event.type === 'text-delta') controller.abort();
    });
    provider.mock().script([{ kind: 'reply', text: 'word '.repeat(400) }]);
    const result = await fixture.runtime.sendUserMessage('long answer please', controller.signal);
    expect(result.outcome).toBe('cancelled');
    expect(await fixture.repository.loadMessages(fixture.runtime.sessionId!)).toEqual([
      { role: 'user', content: 'long answer please' },
    ]);
    expect(fixture.runtime.busy).toBe(false);
    const next = await fixture.runtime.sendUserMessage('short one', noAbort());
    expect(next.outcome).toBe('completed');
  });

  it('talks to an OpenAI-compatible endpoint the same way, reading its usage', async () => {
    const fixture = createRuntimeFixture({
      label: 'openai',
      mock: provider.mock(),
      provider: 'openai-compatible',
    });
    fixture.settings = { ...fixture.settings, provider: { ...fixture.settings.provider!, model: 'gpt-4o' } };
    const result = await fixture.runtime.sendUserMessage('hello from the chat completions route', noAbort());
    expect(result.outcome).toBe('completed');
    const request = provider.mock().requests.find((recorded) => recorded.path === '/v1/chat/completions')!;
    const body = request.body as { messages: Array<{ role: string }>; tools: unknown[]; stream: boolean };
    expect(body.stream).toBe(true);
    expect(body.messages[0]!.role).toBe('system');
    expect(body.tools).toHaveLength(2);
    expect(JSON.stringify(body)).not.toContain('cache_control');
    const [usage] = fixture.eventsOf('usage');
    expect(usage!.promptTokens).toBeGreaterThan(0);
    // A local OpenAI-compatible endpoint is a `custom` route: Hermes prices it as unknown, not $0.
    expect(usage!.costUsd).toBeNull();
    expect(
      fixture
        .eventsOf('text-delta')
        .map((event) => event.text)
        .join(''),
    ).toContain('Mock reply to: hello');
  });

  it('refuses to send without a key and stores nothing', async () => {
    const fixture = createRuntimeFixture({ label: 'no-key', mock: provider.mock() });
    fixture.settings = { ...fixture.settings, provider: null };
    const result = await fixture.runtime.sendUserMessage('hello', noAbort());
    expect(result.outcome).toBe('failed');
    expect(result.message).toMatch(/API key/);
    expect(fixture.runtime.sessionId).toBeNull();
    expect(provider.mock().requests).toEqual([]);
  });

  it('refuses a second message while a turn is running', async () => {
    const fixture = createRuntimeFixture({ label: 'busy', mock: provider.mock() });
    const first = fixture.runtime.sendUserMessage('one', noAbort());
    const second = await fixture.runtime.sendUserMessage('two', noAbort());
    expect(second.outcome).toBe('failed');
    expect((await first).outcome).toBe('completed');
    expect(await fixture.repository.loadMessages(fixture.runtime.sessionId!)).toHaveLength(2);
  });
});
