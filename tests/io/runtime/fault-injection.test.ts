/**
 * Provider fault injection for every error class (issue 8 item 4, SPEC §6, hermes-reference §7):
 * each fault comes from the mock provider over real HTTP, through the real clients (the
 * Anthropic SDK, the OpenAI-compatible fetch client) and the real conversation runtime on
 * fake-indexeddb. For each: the classification, the recovery taken or the plain message, and
 * that the stored conversation is never lost or half-written.
 */
import { describe, expect, it } from 'vitest';
import type { FailoverReason } from '#core/errors/failover-reason.ts';
import type { Preset } from '#core/presets/preset.ts';
import { computeBackoffDelayMs } from '#core/providers/compute-backoff-delay.ts';
import { hasToolCalls, messageText, type Message } from '#core/transcript/message.ts';
import { createChatClient } from '#io/llm/create-chat-client.ts';
import { isLlmError, type LlmError, type LlmErrorKind } from '#io/llm/llm-error.ts';
import { useMockProvider } from '#tests/io/llm/mock-provider-fixture.ts';
import type { MockProvider, MockScriptStep } from '#tests/mock-provider/mock-provider-server.ts';
import {
  API_KEY,
  chatRequests,
  chatStepFetch,
  CLAUDE_MODEL,
  createRuntimeFixture,
  noAbort,
  type RuntimeFixture,
} from './runtime-fixture.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const provider = useMockProvider();

type Route = 'anthropic' | 'openai';

/** The window the runtime works with: small, so an overflow has something to compress. */
const WINDOW_TOKENS = 32_000;
/**
 * Turns stored before the faulted one: about 13,600 tokens, under both presets' thresholds
 * (2026-04: 50% of 32K; 2026-07: 75%), yet about twice the tail budget, so a compaction has a
 * middle to summarise.
 */
const HISTORY_TURNS = 13;
/** About 1,000 tokens each. */
const historyText = (turn: number): string =>
  `History turn ${turn}: please look at service ${turn} and tell me what to change. ` +
  'It reads orders from the queue, prices them and writes invoices to the ledger. '.repeat(50);
const FAULTED_TEXT = 'The faulted turn: what should we change first?';
/** The mock's default reply quotes the first 120 characters of the last user message. */
const echoOf = (text: string): string => `Mock reply to: ${text.slice(0, 120)}`;

const anthropicError = (type: string, message: string) => ({ type: 'error', error: { type, message } });
const openAiError = (message: string, type: string | null, code: string | null) => ({
  error: { message, type, param: null, code },
});

interface FaultCase {
  readonly name: string;
  readonly route: Route;
  readonly preset?: Preset;
  /** Queued, one per chat request of the faulted turn (summary calls never take them). */
  readonly steps: MockScriptStep[];
  /** Changes to the mock after the history, before the faulted turn. */
  readonly arrange?: (mock: MockProvider) => void;
  /** The classification of the first failed request. */
  readonly reason: FailoverReason;
  readonly kind: LlmErrorKind;
  readonly status?: number;
  /** Recovery in the runtime. */
  readonly outcome: 'completed' | 'failed';
  /** The plain message of a failed turn. */
  readonly message?: RegExp;
  /** How many chat requests the faulted turn sends. */
  readonly chatRequests: number;
  readonly retries?: number;
  /** Overflow recoveries (compress and retry); the default is one when `compactions` is 1, else none. */
  readonly recoveries?: number;
  readonly compactions?: number;
  readonly maxTokensRetry?: boolean;
}

const rateLimit: MockScriptStep = { kind: 'rate-limit', retryAfterSeconds: 3 };
const serverError: MockScriptStep = { kind: 'server-error', status: 500 };
/** Anthropic: "prompt is too long: 41234 tokens > 30000 maximum"; OpenAI: `context_length_exceeded`. */
const overflow: MockScriptStep = { kind: 'context-overflow', contextWindow: 30_000, inputTokens: 41_234 };

const CASES: readonly FaultCase[] = [
  ...(['anthropic', 'openai'] as const).flatMap((route): FaultCase[] => [
    {
      name: 'auth: a rejected key (401)',
      route,
      steps: [],
      arrange: (mock) => mock.configure({ requiredApiKey: 'sk-some-other-key-0000' }),
      reason: 'auth',
      kind: 'http',
      status: 401,
      outcome: 'failed',
      message: /HTTP 401.*not retried \[auth\]/,
      chatRequests: 1,
    },
    {
      name: 'rate limit: 429 with retry-after, then success',
      route,
      steps: [rateLimit],
      reason: 'rate_limit',
      kind: 'http',
      status: 429,
      outcome: 'completed',
      chatRequests: 2,
      retries: 1,
    },
    {
      name: 'server error: 500 twice, then success',
      route,
      steps: [serverError, serverError],
      reason: 'server_error',
      kind: 'http',
      status: 500,
      outcome: 'completed',
      chatRequests: 3,
      retries: 2,
    },
    {
      name: 'server error: 500 on every attempt',
      route,
      steps: [serverError, serverError, serverError],
      reason: 'server_error',
      kind: 'http',
      status: 500,
      outcome: 'failed',
      message: /API call failed after 3 attempts/,
      chatRequests: 3,
      retries: 2,
    },
    {
      name: 'context overflow: compress and retry',
      route,
      steps: [overflow],
      reason: 'context_overflow',
      kind: 'http',
      status: 400,
      outcome: 'completed',
      chatRequests: 2,
      compactions: 1,
    },
    {
      name: 'output cap: retry with a lower max_tokens, nothing compressed',
      route,
      steps: [{ kind: 'output-cap', maxTokens: 1024, contextWindow: 32_000, inputTokens: 31_500 }],
      reason: 'context_overflow',
      kind: 'http',
      status: 400,
      outcome: 'completed',
      chatRequests: 2,
      compactions: 0,
      maxTokensRetry: true,
    },
    {
      name: 'a stream cut mid-way, once: retried',
      route,
      steps: [{ kind: 'stream-cut', afterEvents: 5, mode: route === 'anthropic' ? 'destroy' : 'end' }],
      reason: 'timeout',
      kind: 'stream-cut',
      outcome: 'completed',
      chatRequests: 2,
      retries: 1,
    },
    {
      name: 'a stream cut mid-way on every attempt',
      route,
      steps: Array.from({ length: 3 }, (): MockScriptStep => ({ kind: 'stream-cut', afterEvents: 5 })),
      reason: 'timeout',
      kind: 'stream-cut',
      outcome: 'failed',
      message: /API call failed after 3 attempts/,
      chatRequests: 3,
      retries: 2,
    },
    {
      name: 'an overload error event in the middle of the stream: retried',
      route,
      steps: [{ kind: 'stream-error', afterEvents: 5 }],
      reason: 'overloaded',
      kind: 'http',
      outcome: 'completed',
      chatRequests: 2,
      retries: 1,
    },
  ]),
  {
    name: 'context overflow that compression cannot fix: the clear message',
    route: 'anthropic',
    steps: [overflow, overflow, overflow, overflow],
    reason: 'context_overflow',
    kind: 'http',
    status: 400,
    outcome: 'failed',
    // The second compaction of the continuation finds nothing more to summarise.
    message: /^Context length exceeded \([\d,]+ tokens\)\. Cannot compress further\. .*new session/,
    chatRequests: 2,
    recoveries: 2,
  },
  {
    name: 'context overflow on every attempt: at most 3 compressions, then the clear message',
    route: 'openai',
    // Each error names a smaller window, so each attempt makes progress by lowering it.
    steps: [30_000, 28_000, 26_000, 24_000].map((contextWindow): MockScriptStep => ({
      kind: 'context-overflow',
      contextWindow,
      inputTokens: 41_234,
    })),
    reason: 'context_overflow',
    kind: 'http',
    status: 400,
    outcome: 'failed',
    message: /^Context length exceeded: max compression attempts \(3\) reached\. .*new session/,
    chatRequests: 4,
    recoveries: 3,
  },
  {
    name: 'overloaded: 529, then success after a backoff',
    route: 'anthropic',
    steps: [{ kind: 'overloaded' }],
    reason: 'overloaded',
    kind: 'http',
    status: 529,
    outcome: 'completed',
    chatRequests: 2,
    retries: 1,
  },
  {
    name: 'overloaded: 503 "engine overloaded", then success after a backoff',
    route: 'openai',
    steps: [{ kind: 'overloaded' }],
    reason: 'overloaded',
    kind: 'http',
    status: 503,
    outcome: 'completed',
    chatRequests: 2,
    retries: 1,
  },
  {
    name: 'billing: 402 credit balance too low',
    route: 'anthropic',
    steps: [
      {
        kind: 'error',
        status: 402,
        body: anthropicError(
          'billing_error',
          'Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.',
        ),
      },
    ],
    reason: 'billing',
    kind: 'http',
    status: 402,
    outcome: 'failed',
    message: /HTTP 402.*not retried \[billing\].*credit balance/,
    chatRequests: 1,
  },
  {
    name: 'billing: 403 spending limit',
    route: 'openai',
    steps: [
      {
        kind: 'error',
        status: 403,
        body: openAiError('Key limit exceeded: this API key has reached its spending limit.', null, '403'),
      },
    ],
    reason: 'billing',
    kind: 'http',
    status: 403,
    outcome: 'failed',
    message: /HTTP 403.*not retried \[billing\].*spending limit/,
    chatRequests: 1,
  },
  {
    name: 'payload too large: 413, compress and retry',
    route: 'anthropic',
    steps: [
      {
        kind: 'error',
        status: 413,
        body: anthropicError('request_too_large', 'Request exceeds the maximum allowed number of bytes.'),
      },
    ],
    reason: 'payload_too_large',
    kind: 'http',
    status: 413,
    outcome: 'completed',
    chatRequests: 2,
    compactions: 1,
  },
  {
    name: 'model not found: 404',
    route: 'openai',
    steps: [
      {
        kind: 'error',
        status: 404,
        body: openAiError(
          'The model `claude-nope` does not exist or you do not have access to it.',
          'invalid_request_error',
          'model_not_found',
        ),
      },
    ],
    reason: 'model_not_found',
    kind: 'http',
    status: 404,
    outcome: 'failed',
    message: /HTTP 404.*not retried \[model_not_found\].*claude-nope/,
    chatRequests: 1,
  },
  {
    name: "model not found: Anthropic's 404 not_found_error",
    route: 'anthropic',
    steps: [{ kind: 'error', status: 404, body: anthropicError('not_found_error', 'model: claude-nope') }],
    // Hermes has no pattern for this wording: `unknown`, which the loop does not retry either.
    reason: 'unknown',
    kind: 'http',
    status: 404,
    outcome: 'failed',
    message: /HTTP 404.*not retried.*model: claude-nope/,
    chatRequests: 1,
  },
  {
    name: 'content policy: a flagged request (400)',
    route: 'openai',
    steps: [
      {
        kind: 'error',
        status: 400,
        body: openAiError(
          'Your request was flagged by our content filter. Please modify your prompt and retry.',
          'invalid_request_error',
          'content_filter',
        ),
      },
    ],
    reason: 'content_policy_blocked',
    kind: 'http',
    status: 400,
    outcome: 'failed',
    message: /HTTP 400.*not retried \[content_policy_blocked\].*flagged/,
    chatRequests: 1,
  },
  {
    name: 'content policy, 2026-04 (no such class yet): a format error, not retried either',
    route: 'openai',
    preset: HERMES_2026_04,
    steps: [
      {
        kind: 'error',
        status: 400,
        body: openAiError(
          'Your request was flagged by our content filter. Please modify your prompt and retry.',
          'invalid_request_error',
          'content_filter',
        ),
      },
    ],
    reason: 'format_error',
    kind: 'http',
    status: 400,
    outcome: 'failed',
    message: /HTTP 400.*not retried \[format_error\].*flagged/,
    chatRequests: 1,
  },
];

function clientSettings(route: Route) {
  return route === 'anthropic'
    ? { provider: 'anthropic' as const, baseUrl: provider.mock().url, apiKey: API_KEY, model: CLAUDE_MODEL }
    : {
        provider: 'openai-compatible' as const,
        baseUrl: `${provider.mock().url}/v1`,
        apiKey: API_KEY,
        model: CLAUDE_MODEL,
      };
}

async function failedSend(route: Route, preset: Preset, signal?: AbortSignal): Promise<LlmError> {
  const client = await createChatClient(clientSettings(route), { preset });
  const error = await client
    // The faulted turn's text: its echoed reply is long enough that a cut after 5 events is
    // mid-way on both APIs (a one-word reply is whole, finish_reason included, by then).
    .send({ messages: [{ role: 'user', content: FAULTED_TEXT }], maxTokens: 256 }, undefined, signal)
    .then(
      () => null,
      (thrown: unknown) => thrown,
    );
  if (!isLlmError(error)) throw new Error(`expected an LlmError, got ${String(error)}`);
  return error;
}

/** A runtime with `HISTORY_TURNS` stored turns, its mock steps queued for chat requests only. */
async function conversationWithHistory(
  label: string,
  route: Route,
  preset: Preset,
): Promise<{ fixture: RuntimeFixture; queue: (...steps: MockScriptStep[]) => void; history: string[] }> {
  const steps = chatStepFetch(provider.mock);
  const fixture = createRuntimeFixture({
    label,
    mock: provider.mock(),
    preset,
    provider: route === 'anthropic' ? 'anthropic' : 'openai-compatible',
    contextLength: WINDOW_TOKENS,
    maxOutputTokens: 1024,
    fetch: steps.fetch,
  });
  const history: string[] = [];
  for (let turn = 1; turn <= HISTORY_TURNS; turn++) {
    history.push(historyText(turn));
    const result = await fixture.runtime.sendUserMessage(historyText(turn), noAbort());
    expect(result, `history turn ${turn}`).toEqual({ outcome: 'completed', message: null });
  }
  expect(fixture.eventsOf('compaction-start'), 'the history fits without compaction').toEqual([]);
  return { fixture, queue: steps.queue, history };
}

/**
 * The stored conversation is whole: the tip is the one live session of its lineage and holds
 * what the runtime holds; the faulted turn's user message is stored exactly once, last of the
 * user messages; after a failure nothing follows it, after a success exactly the full reply;
 * every earlier user message is still reachable through the lineage; no assistant row is empty.
 */
async function expectConversationIntact(
  fixture: RuntimeFixture,
  history: readonly string[],
  outcome: 'completed' | 'failed',
): Promise<Message[]> {
  const tip = fixture.runtime.sessionId!;
  const stored = await fixture.repository.loadMessages(tip);
  expect(stored).toEqual(fixture.runtime.messages);
  const userTexts = stored
    .filter((message) => message.role === 'user')
    .map((message) => messageText(message));
  expect(userTexts.filter((text) => text === FAULTED_TEXT)).toHaveLength(1);
  expect(userTexts.at(-1)).toBe(FAULTED_TEXT);
  const last = stored.at(-1)!;
  if (outcome === 'failed') expect(last).toEqual({ role: 'user', content: FAULTED_TEXT });
  else {
    expect(last).toEqual({ role: 'assistant', content: echoOf(FAULTED_TEXT) });
    expect(stored.at(-2)).toEqual({ role: 'user', content: FAULTED_TEXT });
  }

  const lineage = await fixture.repository.loadLineageMessages(tip);
  expect(lineage.at(-1)!.session.id).toBe(tip);
  expect(lineage.map((segment) => segment.session.endReason)).toEqual([
    ...lineage.slice(1).map(() => 'compression'),
    null,
  ]);
  const everything = lineage.flatMap((segment) => segment.messages);
  for (const text of history) expect(everything.some((message) => messageText(message) === text)).toBe(true);
  for (const message of everything.filter((message) => message.role === 'assistant'))
    expect(messageText(message) !== '' || hasToolCalls(message)).toBe(true);
  return stored;
}

describe('provider fault classification', () => {
  for (const fault of CASES) {
    it(`classifies ${fault.name} (${fault.route}) as ${fault.reason}`, async () => {
      fault.arrange?.(provider.mock());
      provider.mock().script(fault.steps.slice(0, 1));
      const error = await failedSend(fault.route, fault.preset ?? HERMES_2026_07);
      expect(error.kind).toBe(fault.kind);
      expect(error.classification?.reason).toBe(fault.reason);
      if (fault.status !== undefined) expect(error.status).toBe(fault.status);
      expect(error.message).not.toContain(API_KEY);
    });
  }

  it.each(['anthropic', 'openai'] as const)(
    'reports a request that outlives its deadline as a timeout (%s)',
    async (route) => {
      provider.mock().script([{ kind: 'timeout' }]);
      const started = Date.now();
      const error = await failedSend(route, HERMES_2026_07, AbortSignal.timeout(300));
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(error.kind).toBe('timeout');
      expect(error.classification?.reason).toBe('timeout');
      expect(error.classification?.retryable).toBe(true);
    },
  );
});

describe('ConversationRuntime under provider faults', () => {
  for (const fault of CASES) {
    const preset = fault.preset ?? HERMES_2026_07;
    it(`${fault.name} (${fault.route}): ${fault.outcome === 'completed' ? 'recovers' : 'reports it plainly'}, conversation intact`, async () => {
      const { fixture, queue, history } = await conversationWithHistory(
        `fault-${fault.route}-${fault.name}`,
        fault.route,
        preset,
      );
      const before = chatRequests(provider.mock()).length;
      fixture.events.length = 0;
      fixture.sleeps.length = 0;
      fault.arrange?.(provider.mock());
      queue(...fault.steps);

      const result = await fixture.runtime.sendUserMessage(FAULTED_TEXT, noAbort());

      expect(result.outcome).toBe(fault.outcome);
      if (fault.outcome === 'completed') expect(result.message).toBeNull();
      else {
        expect(result.message).toMatch(fault.message!);
        expect(result.message).not.toContain(API_KEY);
        expect(fixture.eventsOf('error').map((event) => event.message)).toEqual([result.message]);
      }
      const sent = chatRequests(provider.mock()).slice(before);
      expect(sent).toHaveLength(fault.chatRequests);
      // Every request of the turn carried the new user message.
      for (const request of sent) expect(JSON.stringify(request.body.messages)).toContain(FAULTED_TEXT);

      const retries = fixture.eventsOf('retry');
      expect(retries).toHaveLength(fault.retries ?? 0);
      for (const retry of retries) expect(retry.message).toMatch(/Retrying in/);
      if (fault.reason === 'rate_limit') {
        expect(retries[0]!.delayMs).toBe(3000);
        expect(fixture.sleeps).toEqual([3000]);
      }
      if (fault.reason === 'overloaded' || fault.reason === 'server_error') {
        // Exponential backoff with jitter (the fixture's random is 0.5), no retry-after.
        expect(retries.map((retry) => retry.delayMs)).toEqual(
          retries.map((_, index) => computeBackoffDelayMs({ retryNumber: index + 1, random: 0.5 })),
        );
        expect(retries[0]!.delayMs).toBeGreaterThan(0);
      }

      const recoveries = fixture.eventsOf('recovery');
      const overflowCompactions = fixture
        .eventsOf('compaction-end')
        .filter((event) => event.reason === 'overflow');
      if (fault.compactions !== undefined) {
        expect(overflowCompactions).toHaveLength(fault.compactions);
        for (const compaction of overflowCompactions) {
          expect(compaction.outcome).toBe(preset.sessions.compaction === 'in-place' ? 'in-place' : 'rotated');
          expect(compaction.messagesAfter).toBeLessThan(compaction.messagesBefore);
          expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore);
        }
        if (fault.compactions > 0)
          expect(recoveries).toEqual([expect.objectContaining({ action: 'compress-and-retry', attempt: 1 })]);
      }
      if (fault.recoveries !== undefined) {
        expect(recoveries.map((recovery) => [recovery.action, recovery.attempt])).toEqual(
          Array.from({ length: fault.recoveries }, (_, index) => ['compress-and-retry', index + 1]),
        );
        expect(overflowCompactions).toHaveLength(fault.recoveries);
      }
      if (fault.recoveries === undefined && fault.compactions === undefined && !fault.maxTokensRetry)
        expect(recoveries).toEqual([]);
      if (fault.reason === 'context_overflow' && !fault.maxTokensRetry && fault.outcome === 'completed') {
        // The window the error named (30,000 < 32,000) is adopted.
        expect(recoveries[0]!.contextLength).toBe(30_000);
        expect(fixture.runtime.contextLengthFor(fixture.settings)).toBe(30_000);
      }
      if (fault.maxTokensRetry) {
        expect(recoveries).toEqual([expect.objectContaining({ action: 'retry-with-max-tokens' })]);
        const caps = sent.map((request) => request.body.max_tokens);
        // available = 32,000 − 31,500 = 500 (below the local room), minus the 64-token margin.
        expect(caps).toEqual([1024, 500 - 64]);
        expect(fixture.eventsOf('compaction-start')).toEqual([]);
      }
      if (fault.kind === 'stream-cut' || fault.name.includes('stream'))
        expect(fixture.eventsOf('stream-reset').length).toBeGreaterThanOrEqual(1);

      await expectConversationIntact(fixture, history, fault.outcome);
      expect(fixture.runtime.busy).toBe(false);
    });
  }

  it('retries a failed turn once the provider is back, answering the stored user message', async () => {
    const { fixture, queue, history } = await conversationWithHistory(
      'fault-retry',
      'anthropic',
      HERMES_2026_07,
    );
    queue({ kind: 'overloaded' }, { kind: 'overloaded' }, { kind: 'overloaded' });
    expect((await fixture.runtime.sendUserMessage(FAULTED_TEXT, noAbort())).outcome).toBe('failed');
    await expectConversationIntact(fixture, history, 'failed');
    expect(await fixture.runtime.retry(noAbort())).toEqual({ outcome: 'completed', message: null });
    await expectConversationIntact(fixture, history, 'completed');
  });
});

describe('ConversationRuntime: a provider that stops answering', () => {
  /** Short, so a hung request ends in the test; the app's default is minutes. */
  const IDLE_TIMEOUT_MS = 300;
  /** Fails the test instead of waiting for vitest when a turn never ends. */
  const withinSeconds = <T>(promise: Promise<T>, seconds: number): Promise<T> =>
    Promise.race([
      promise,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`the turn did not end within ${seconds} s`)), seconds * 1000),
      ),
    ]);

  /**
   * Passes a streamed body on one SSE event at a time, a fraction of the deadline apart; the
   * request's signal still breaks the stream off, as it would a real body.
   */
  const pacedFetch =
    (inner: typeof fetch): typeof fetch =>
    async (input, init) => {
      const response = await inner(input, init);
      if (!response.body || !(response.headers.get('content-type') ?? '').includes('event-stream'))
        return response;
      const events = (await response.text()).split(/(?<=\n\n)/);
      const encoder = new TextEncoder();
      const signal = init?.signal;
      const paced = new ReadableStream<Uint8Array>({
        start(controller) {
          signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true });
        },
        async pull(controller) {
          const next = events.shift();
          if (next === undefined) return controller.close();
          await new Promise((resolve) => setTimeout(resolve, IDLE_TIMEOUT_MS / 8));
          if (!signal?.aborted) controller.enqueue(encoder.encode(next));
        },
      });
      return new Response(paced, { status: response.status, headers: response.headers });
    };

  async function timedConversation(
    label: string,
    route: Route,
    wrapFetch: (inner: typeof fetch) => typeof fetch = (inner) => inner,
  ) {
    const steps = chatStepFetch(provider.mock);
    const fixture = createRuntimeFixture({
      label,
      mock: provider.mock(),
      preset: HERMES_2026_07,
      provider: route === 'anthropic' ? 'anthropic' : 'openai-compatible',
      contextLength: WINDOW_TOKENS,
      fetch: wrapFetch(steps.fetch),
      overrides: { requestIdleTimeoutMs: IDLE_TIMEOUT_MS },
    });
    const history = ['History turn 1: hello there.'];
    expect((await fixture.runtime.sendUserMessage(history[0]!, noAbort())).outcome).toBe('completed');
    fixture.events.length = 0;
    return { fixture, queue: steps.queue, history };
  }

  for (const route of ['anthropic', 'openai'] as const) {
    it(`abandons a request with no answer after the idle deadline, retries, then reports a timeout (${route})`, async () => {
      const { fixture, queue, history } = await timedConversation(`timeout-${route}`, route);
      queue({ kind: 'timeout' }, { kind: 'timeout' }, { kind: 'timeout' });
      const result = await withinSeconds(fixture.runtime.sendUserMessage(FAULTED_TEXT, noAbort()), 10);
      expect(result.outcome).toBe('failed');
      expect(result.message).toMatch(/API call failed after 3 attempts: .*timed out/i);
      const retries = fixture.eventsOf('retry');
      expect(retries).toHaveLength(2);
      for (const retry of retries) expect(retry.message).toMatch(/did not answer in time/);
      await expectConversationIntact(fixture, history, 'failed');
    });

    it(`abandons a reply that stalls mid-stream and answers on the retry, keeping no partial reply (${route})`, async () => {
      const { fixture, queue, history } = await timedConversation(`stall-${route}`, route);
      queue({ kind: 'stream-cut', afterEvents: 5, mode: 'stall' });
      const result = await withinSeconds(fixture.runtime.sendUserMessage(FAULTED_TEXT, noAbort()), 10);
      expect(result).toEqual({ outcome: 'completed', message: null });
      expect(fixture.eventsOf('text-delta').length).toBeGreaterThan(0);
      expect(fixture.eventsOf('stream-reset')).toHaveLength(1);
      expect(fixture.eventsOf('retry')).toEqual([expect.objectContaining({ attempt: 1 })]);
      await expectConversationIntact(fixture, history, 'completed');
    });
  }

  it('keeps a slow reply that keeps streaming: the deadline is for silence, not for the whole reply', async () => {
    const { fixture, queue } = await timedConversation('slow-stream', 'openai', pacedFetch);
    const text = 'A slow but steady answer, word after word. '.repeat(12).trim();
    queue({ kind: 'reply', text });
    const started = Date.now();
    const result = await withinSeconds(fixture.runtime.sendUserMessage(FAULTED_TEXT, noAbort()), 10);
    expect(result).toEqual({ outcome: 'completed', message: null });
    // The whole reply took several deadlines; no gap between its pieces came near one.
    expect(Date.now() - started).toBeGreaterThan(2 * IDLE_TIMEOUT_MS);
    expect(fixture.eventsOf('retry')).toEqual([]);
    expect(await fixture.repository.loadMessages(fixture.runtime.sessionId!)).toEqual([
      ...fixture.runtime.messages.slice(0, -1),
      { role: 'assistant', content: text },
    ]);
  });
});

describe('ConversationRuntime: a provider that repeats or omits tool call ids', () => {
  /** Two calls sharing one id, then (next turn) two calls without ids, then the first id again. */
  const searchCall = (query: string, id: string) => ({
    name: 'search_sessions',
    arguments: { query },
    id,
  });

  for (const route of ['anthropic', 'openai'] as const) {
    it(`stores every call under its own id and pairs each result with its call (${route})`, async () => {
      const steps = chatStepFetch(provider.mock);
      const fixture = createRuntimeFixture({
        label: `duplicate-ids-${route}`,
        mock: provider.mock(),
        provider: route === 'anthropic' ? 'anthropic' : 'openai-compatible',
        fetch: steps.fetch,
      });
      steps.queue(
        { kind: 'reply', toolCalls: [searchCall('alpha', 'dup'), searchCall('beta', 'dup')] },
        { kind: 'reply', text: 'Looked twice.' },
      );
      expect(await fixture.runtime.sendUserMessage('Search for alpha and beta.', noAbort())).toEqual({
        outcome: 'completed',
        message: null,
      });
      steps.queue(
        { kind: 'reply', toolCalls: [searchCall('gamma', ''), searchCall('delta', '')] },
        { kind: 'reply', text: 'Looked again.' },
        { kind: 'reply', toolCalls: [searchCall('epsilon', 'dup')] },
        { kind: 'reply', text: 'Done.' },
      );
      expect((await fixture.runtime.sendUserMessage('Now gamma and delta.', noAbort())).outcome).toBe(
        'completed',
      );
      expect((await fixture.runtime.sendUserMessage('And epsilon.', noAbort())).outcome).toBe('completed');

      const stored = await fixture.repository.loadMessages(fixture.runtime.sessionId!);
      const calls = stored.flatMap((message) => message.tool_calls ?? []);
      // The ~N convention of the importer; empty ids named by position; a later turn's repeat renamed too.
      expect(calls.map((call) => call.id)).toEqual(['dup', 'dup~2', 'call_0', 'call_1', 'dup~3']);
      const queries = calls.map((call) => (JSON.parse(call.function.arguments) as { query: string }).query);
      expect(queries).toEqual(['alpha', 'beta', 'gamma', 'delta', 'epsilon']);
      // Each result answers its own call: the ids are the calls' ids, in call order.
      const results = stored.filter((message) => message.role === 'tool');
      expect(results.map((message) => message.tool_call_id)).toEqual(calls.map((call) => call.id));
      for (const [index, result] of results.entries()) expect(messageText(result)).toContain(queries[index]!);

      // What went back to the provider carried unique ids as well.
      const lastRequest = JSON.stringify(chatRequests(provider.mock()).at(-1)!.body.messages);
      for (const id of ['dup', 'dup~2', 'call_0', 'call_1'])
        expect(lastRequest).toContain(route === 'anthropic' ? id.replace('~', '_') : id);
      expect(fixture.eventsOf('error')).toEqual([]);
    });
  }
});
