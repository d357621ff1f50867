import { DEFAULT_COMPRESSION_CONFIG, type CompressionConfig } from '#core/config/compression-config.ts';
import type { BudgetConfig } from '#core/persistence/budget-config.ts';
import type { Preset } from '#core/presets/preset.ts';
import { STRATEGIES } from '#core/strategies/strategy-registry.ts';
import type { Strategy } from '#core/strategies/strategy.ts';
import { inProcessCompactor } from '#tests/helpers/in-process-compactor.ts';
import { InMemoryLockManager } from '#io/db/in-memory-lock-manager.ts';
import type { SessionRepository } from '#io/db/session-repository.ts';
import { createChatClient } from '#io/llm/create-chat-client.ts';
import type { ProviderSettings } from '#io/llm/provider-settings.ts';
import type { ConversationEvent } from '#core/loop/conversation-event.ts';
import {
  ConversationRuntime,
  type ConversationRuntimeDependencies,
} from '#io/runtime/conversation-runtime.ts';
import type { RuntimeSettings } from '#io/runtime/runtime-settings.ts';
import {
  conversationStoreFromRepository,
  toolResultStoreFromRepository,
} from '#io/runtime/session-repository-store.ts';
import type { MockProvider, MockScriptStep } from '#tests/mock-provider/mock-provider-server.ts';
import { openFixtureRepository } from '#tests/helpers/session-repository-fixture.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';

export const API_KEY = 'sk-ant-runtime-test-0123456789';
/** Priced in the 2026-04 snapshot, so costs are known. */
export const CLAUDE_MODEL = 'claude-sonnet-4-20250514';

export interface RuntimeFixtureOptions {
  readonly label: string;
  readonly mock: MockProvider;
  /** A Hermes generation; its strategy is used unless `strategy` is given. */
  readonly preset?: Preset;
  readonly strategy?: Strategy;
  readonly contextLength?: number;
  readonly compression?: Partial<CompressionConfig>;
  readonly maxOutputTokens?: number;
  readonly promptCaching?: boolean;
  readonly systemPrompt?: string;
  readonly toolBudget?: BudgetConfig;
  /** Shared between two fixtures to model two tabs of one browser. */
  readonly repository?: SessionRepository;
  readonly locks?: InMemoryLockManager;
  readonly fetch?: typeof fetch;
  readonly provider?: ProviderSettings['provider'];
  /** Replaces any of the runtime's dependencies (e.g. a short request deadline). */
  readonly overrides?: Partial<Omit<ConversationRuntimeDependencies, 'settings'>>;
}

export interface RuntimeFixture {
  readonly runtime: ConversationRuntime;
  readonly repository: SessionRepository;
  readonly events: ConversationEvent[];
  readonly sleeps: number[];
  settings: RuntimeSettings;
  eventsOf<T extends ConversationEvent['type']>(type: T): Extract<ConversationEvent, { type: T }>[];
}

/** A runtime on fake-indexeddb talking to the in-process mock provider; waits are instant but recorded. */
/** The Hermes strategy of a preset (tests name generations by their preset). */
export const hermesStrategyOf = (preset: Preset): Strategy =>
  STRATEGIES.find((strategy) => strategy.usesHermesSettings && strategy.preset === preset)!;

export function createRuntimeFixture(options: RuntimeFixtureOptions): RuntimeFixture {
  const repository = options.repository ?? openFixtureRepository(options.label).repository;
  const locks = options.locks ?? new InMemoryLockManager();
  const provider = options.provider ?? 'anthropic';
  const events: ConversationEvent[] = [];
  const sleeps: number[] = [];
  const fixture: RuntimeFixture = {
    runtime: undefined as unknown as ConversationRuntime,
    repository,
    events,
    sleeps,
    settings: {
      strategy: options.strategy ?? hermesStrategyOf(options.preset ?? HERMES_2026_04),
      provider: {
        provider,
        baseUrl: provider === 'anthropic' ? options.mock.url : `${options.mock.url}/v1`,
        apiKey: API_KEY,
        model: CLAUDE_MODEL,
      },
      compression: {
        ...DEFAULT_COMPRESSION_CONFIG,
        contextLength: options.contextLength ?? 200_000,
        ...options.compression,
      },
      maxOutputTokens: options.maxOutputTokens ?? 1024,
      promptCaching: options.promptCaching ?? true,
      systemPrompt: options.systemPrompt ?? 'You are a test assistant.',
    },
    eventsOf: (type) => events.filter((event) => event.type === type) as never,
  };
  const runtime = new ConversationRuntime({
    ...runtimeDependencies({ repository, locks, sleeps, ...(options.fetch ? { fetch: options.fetch } : {}) }),
    settings: () => fixture.settings,
    ...(options.toolBudget ? { toolBudget: options.toolBudget } : {}),
    ...options.overrides,
  });
  runtime.events.subscribe((event) => events.push(event));
  (fixture as { runtime: ConversationRuntime }).runtime = runtime;
  return fixture;
}

/** Everything a runtime needs except its settings: fake-indexeddb storage, the mock, instant waits. */
export function runtimeDependencies(options: {
  repository: SessionRepository;
  locks?: InMemoryLockManager;
  sleeps?: number[];
  fetch?: typeof fetch;
}): Omit<ConversationRuntimeDependencies, 'settings'> {
  return {
    store: conversationStoreFromRepository(options.repository, {
      locks: options.locks ?? new InMemoryLockManager(),
    }),
    toolResults: toolResultStoreFromRepository(options.repository),
    compact: inProcessCompactor,
    createClient: (settings, preset) =>
      createChatClient(settings, { preset, fetch: options.fetch ?? ((input, init) => fetch(input, init)) }),
    now: () => Date.now(),
    random: () => 0.5,
    sleep: async (milliseconds, signal) => {
      options.sleeps?.push(milliseconds);
      signal?.throwIfAborted();
    },
    today: () => '2027-01-15',
  };
}

/** A fresh, never-aborted signal. */
export const noAbort = (): AbortSignal => new AbortController().signal;

/** Text of a recorded Anthropic request's messages, for "is this text in the request" checks. */
export function requestText(body: unknown): string {
  return JSON.stringify((body as { messages?: unknown }).messages ?? []);
}

/** The recorded generation requests that are chat turns (they offer tools; summary calls do not). */
export function chatRequests(mock: MockProvider): Array<{ body: Record<string, unknown> }> {
  return mock.requests
    .filter((request) => request.path === '/v1/messages' || request.path.endsWith('/chat/completions'))
    .map((request) => ({ body: request.body as Record<string, unknown> }))
    .filter((request) => Array.isArray(request.body.tools) && request.body.tools.length > 0);
}

export function summaryRequests(mock: MockProvider): Array<{ body: Record<string, unknown> }> {
  return mock.requests
    .filter((request) => request.path === '/v1/messages' || request.path.endsWith('/chat/completions'))
    .map((request) => ({ body: request.body as Record<string, unknown> }))
    .filter((request) => !Array.isArray(request.body.tools) || request.body.tools.length === 0);
}

/**
 * A fetch that queues a mock step just before a chat request (one offering tools) leaves, so
 * summary calls in between never consume a step meant for the conversation.
 */
export function chatStepFetch(mock: () => MockProvider): {
  fetch: typeof fetch;
  queue: (...steps: MockScriptStep[]) => void;
} {
  const pending: MockScriptStep[] = [];
  return {
    queue: (...steps) => void pending.push(...steps),
    fetch: async (input, init) => {
      if (typeof init?.body === 'string' && pending.length > 0) {
        const body = JSON.parse(init.body) as { tools?: unknown[] };
        if (Array.isArray(body.tools) && body.tools.length > 0) mock().script([pending.shift()!]);
      }
      return fetch(input, init);
    },
  };
}
