import { describe, expect, it } from 'vitest';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import type { AppDb } from '#io/db/app-db.ts';
import { SessionRepository } from '#io/db/session-repository.ts';
import { SettingsRepository } from '#io/db/settings-repository.ts';
import { ConversationRuntime } from '#io/runtime/conversation-runtime.ts';
import type { ChatConversation } from '#state/chat-conversation.ts';
import { CHAT_SESSION_SETTING_KEY, ChatState } from '#state/chat-state.svelte.ts';
import { fixtureDeps, openFixtureRepository } from '#tests/helpers/session-repository-fixture.ts';
import { useMockProvider } from '#tests/io/llm/mock-provider-fixture.ts';
import { API_KEY, CLAUDE_MODEL, runtimeDependencies } from '#tests/io/runtime/runtime-fixture.ts';
import { HERMES_2026_04_STRATEGY } from '#core/strategies/hermes.ts';

const provider = useMockProvider();

function chatState(
  label: string,
  keyed = true,
): {
  chat: ChatState;
  settings: SettingsRepository;
  db: AppDb;
  repository: SessionRepository;
  published: Array<{ conversation: ChatConversation; claim: boolean }>;
} {
  const { db, repository } = openFixtureRepository(label);
  const settings = new SettingsRepository(db);
  const published: Array<{ conversation: ChatConversation; claim: boolean }> = [];
  const chat = new ChatState({
    onConversation: (conversation, claim) => published.push({ conversation, claim }),
    settingsRepository: settings,
    baseSettings: () => ({
      strategy: HERMES_2026_04_STRATEGY,
      provider: keyed
        ? { provider: 'anthropic', baseUrl: provider.mock().url, apiKey: API_KEY, model: CLAUDE_MODEL }
        : null,
      compression: DEFAULT_COMPRESSION_CONFIG,
    }),
    createRuntime: async (runtimeSettings) =>
      new ConversationRuntime({ ...runtimeDependencies({ repository }), settings: runtimeSettings }),
  });
  return { chat, settings, db, repository, published };
}

describe('ChatState', () => {
  it('shows the conversation, usage totals and remembers the session for the next visit', async () => {
    const { chat, settings } = chatState('chat-state');
    const result = await chat.send('hello there');
    expect(result.outcome).toBe('completed');
    expect(chat.entries.map((entry) => (entry.kind === 'message' ? entry.message.role : entry.kind))).toEqual(
      ['user', 'assistant'],
    );
    expect(chat.status).toBe('idle');
    expect(chat.streamingText).toBe('');
    expect(chat.totals.requests).toBe(1);
    expect(chat.totals.promptTokens).toBeGreaterThan(0);
    expect(chat.totals.costUsd).toBeGreaterThan(0);
    expect(chat.totals.pricedRequests).toBe(1);
    expect(
      await settings.get(CHAT_SESSION_SETTING_KEY, '', (value): value is string => typeof value === 'string'),
    ).toBe(chat.sessionId);
  });

  it('reopens the last conversation on start', async () => {
    const { chat, settings, db } = chatState('chat-state-resume');
    await chat.send('remember me');
    const again = new ChatState({
      settingsRepository: settings,
      baseSettings: () => ({
        strategy: HERMES_2026_04_STRATEGY,
        provider: null,
        compression: DEFAULT_COMPRESSION_CONFIG,
      }),
      createRuntime: async (runtimeSettings) =>
        new ConversationRuntime({
          // A second repository on the same database: what a reload sees.
          ...runtimeDependencies({ repository: new SessionRepository(db, fixtureDeps()) }),
          settings: runtimeSettings,
        }),
    });
    await again.start();
    expect(again.sessionId).toBe(chat.sessionId);
    expect(again.entries).toHaveLength(2);
  });

  it('shows a failure plainly and offers Retry, which answers the kept message', async () => {
    const { chat } = chatState('chat-state-retry');
    const cut = { kind: 'stream-cut', afterEvents: 4 } as const;
    provider.mock().script([cut, cut, cut]);
    const failed = await chat.send('try me');
    expect(failed.outcome).toBe('failed');
    expect(chat.error).toMatch(/3 attempts: .*(broken|incomplete)/);
    expect(chat.canRetry).toBe(true);
    expect(chat.entries.some((entry) => entry.kind === 'notice' && entry.tone === 'warning')).toBe(true);
    expect((await chat.retry()).outcome).toBe('completed');
    expect(chat.error).toBeNull();
    expect(chat.canRetry).toBe(false);
  });

  it('after a reload, offers Retry for a turn that failed: the reopened conversation ends unanswered', async () => {
    const { chat, settings, db } = chatState('chat-state-reload-retry');
    const cut = { kind: 'stream-cut', afterEvents: 4 } as const;
    provider.mock().script([cut, cut, cut]);
    expect((await chat.send('answer me later')).outcome).toBe('failed');
    const reopened = new ChatState({
      settingsRepository: settings,
      baseSettings: () => ({
        strategy: HERMES_2026_04_STRATEGY,
        provider: {
          provider: 'anthropic',
          baseUrl: provider.mock().url,
          apiKey: API_KEY,
          model: CLAUDE_MODEL,
        },
        compression: DEFAULT_COMPRESSION_CONFIG,
      }),
      createRuntime: async (runtimeSettings) =>
        new ConversationRuntime({
          ...runtimeDependencies({ repository: new SessionRepository(db, fixtureDeps()) }),
          settings: runtimeSettings,
        }),
    });
    await reopened.start();
    expect(
      reopened.entries.map((entry) => (entry.kind === 'message' ? entry.message.role : entry.kind)),
    ).toEqual(['user']);
    expect(reopened.error).toBeNull();
    expect(reopened.canRetry).toBe(true);
    expect(reopened.reopenedUnanswered).toBe(true);
    expect((await reopened.retry()).outcome).toBe('completed');
    expect(reopened.canRetry).toBe(false);
    expect(reopened.reopenedUnanswered).toBe(false);
  });

  it('does not offer Retry for a reopened conversation that was answered', async () => {
    const { chat, settings, db } = chatState('chat-state-reload-answered');
    await chat.send('all fine');
    const reopened = new ChatState({
      settingsRepository: settings,
      baseSettings: () => ({
        strategy: HERMES_2026_04_STRATEGY,
        provider: null,
        compression: DEFAULT_COMPRESSION_CONFIG,
      }),
      createRuntime: async (runtimeSettings) =>
        new ConversationRuntime({
          ...runtimeDependencies({ repository: new SessionRepository(db, fixtureDeps()) }),
          settings: runtimeSettings,
        }),
    });
    await reopened.start();
    expect(reopened.canRetry).toBe(false);
  });

  it('without a key, says so and keeps nothing', async () => {
    const { chat } = chatState('chat-state-no-key', false);
    const result = await chat.send('hello');
    expect(result.message).toMatch(/API key/);
    expect(chat.error).toMatch(/API key/);
    expect(chat.canRetry).toBe(false);
    expect(chat.sessionId).toBeNull();
  });

  it('Stop cancels the turn and leaves the conversation answerable', async () => {
    const { chat } = chatState('chat-state-stop');
    provider.mock().script([{ kind: 'timeout' }]);
    const sending = chat.send('hang on');
    await expect.poll(() => provider.mock().requests.length).toBe(1);
    chat.stop();
    expect((await sending).outcome).toBe('cancelled');
    expect(chat.canRetry).toBe(true);
    expect((await chat.retry()).outcome).toBe('completed');
  });

  it('shows /compress for review, commits the edited summary, and undoes and redoes it', async () => {
    const { db, repository } = openFixtureRepository('chat-state-review');
    const chat = new ChatState({
      settingsRepository: new SettingsRepository(db),
      baseSettings: () => ({
        strategy: HERMES_2026_04_STRATEGY,
        provider: {
          provider: 'anthropic',
          baseUrl: provider.mock().url,
          apiKey: API_KEY,
          model: CLAUDE_MODEL,
        },
        compression: DEFAULT_COMPRESSION_CONFIG,
        compactionMode: 'in-place',
      }),
      createRuntime: async (runtimeSettings, reviewer) =>
        new ConversationRuntime({
          ...runtimeDependencies({ repository }),
          settings: runtimeSettings,
          reviewer,
        }),
      countTokens: async (text) => text.length,
    });
    for (let turn = 1; turn <= 6; turn++)
      await chat.send(
        `Turn ${turn}: check the invoices. ${'They reconcile against ledger rows. '.repeat(30)}`,
      );
    expect(chat.canUndo).toBe(false);
    const compacting = chat.send('/compress');
    await expect.poll(() => chat.review !== null).toBe(true);
    expect(chat.status).toBe('reviewing');
    expect(chat.busy).toBe(true);
    const review = chat.review!;
    await expect.poll(() => review.tokenCounts[0]).toBe(review.bodies[0]!.length);
    review.edit(
      0,
      `${review.bodies[0]}
KEEP-THIS-LINE`,
    );
    await review.commit();
    expect((await compacting).outcome).toBe('completed');
    expect(chat.review).toBeNull();
    const card = chat.entries.find((entry) => entry.kind === 'compaction');
    expect(card?.kind === 'compaction' && card.report).toMatchObject({ outcome: 'in-place', edited: true });
    expect(chat.canUndo).toBe(true);
    expect(chat.history?.undo?.number).toBe(1);

    const undone = await chat.undo();
    expect(undone.outcome).toBe('completed');
    expect(chat.entries.filter((entry) => entry.kind === 'message').length).toBe(12);
    expect(chat.canUndo).toBe(false);
    expect(chat.canRedo).toBe(true);
    expect((await chat.redo()).outcome).toBe('completed');
    // The log now shows the compacted history: fewer messages, the edited summary among them.
    expect(chat.entries.filter((entry) => entry.kind === 'message').length).toBeLessThan(12);
    expect(JSON.stringify(chat.entries)).toContain('KEEP-THIS-LINE');
  });
});

describe('ChatState: the conversation the workspace follows', () => {
  it('publishes every change as one value; the user’s send claims the workspace once', async () => {
    const { chat, published } = chatState('chat-state-publish');
    await chat.send('hello there');
    const claims = published.filter((entry) => entry.claim);
    expect(claims).toHaveLength(1);
    // Claimed as soon as the conversation exists (its session created), before any reply.
    expect(claims[0]!.conversation.messages).toEqual([]);
    expect(claims[0]!.conversation.sessionId).toBe(chat.sessionId);
    const last = published.at(-1)!.conversation;
    expect(last).toBe(chat.conversation);
    expect(last.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(last.systemPrompt).toBe(chat.options.systemPrompt);
    expect(last.model).toBe(CLAUDE_MODEL);
    // The usage of the reply is in the state the workspace plans with.
    expect(last.state.lastPromptTokens).toBeGreaterThan(0);
    expect(last.lastSessionPromptTokens).toBe(last.state.lastPromptTokens);
    // Each message appended shows as a grown list that keeps the earlier messages as they were.
    const userOnly = published.find((entry) => entry.conversation.messages.length === 1)!.conversation;
    expect(last.messages[0]).toBe(userOnly.messages[0]);

    published.length = 0;
    await chat.send('and again');
    expect(published[0]).toMatchObject({ claim: true });
    expect(published.filter((entry) => entry.claim)).toHaveLength(1);
  });

  it('reopening the last conversation at start does not claim the workspace; Resume does', async () => {
    const { chat, settings, repository } = chatState('chat-state-publish-resume');
    await chat.send('remember me');
    const published: Array<{ conversation: ChatConversation; claim: boolean }> = [];
    const again = new ChatState({
      settingsRepository: settings,
      onConversation: (conversation, claim) => published.push({ conversation, claim }),
      baseSettings: () => ({
        strategy: HERMES_2026_04_STRATEGY,
        provider: null,
        compression: DEFAULT_COMPRESSION_CONFIG,
      }),
      createRuntime: async (runtimeSettings) =>
        new ConversationRuntime({ ...runtimeDependencies({ repository }), settings: runtimeSettings }),
    });
    await again.start();
    expect(published.map((entry) => entry.claim)).toEqual([false]);
    expect(published[0]!.conversation.messages).toHaveLength(2);
    await again.resume(chat.sessionId!);
    expect(published.at(-1)).toMatchObject({ claim: true });
    expect(published.at(-1)!.conversation.sessionId).toBe(chat.sessionId);
  });

  it('a send refused for want of a key claims nothing', async () => {
    const { chat, published } = chatState('chat-state-publish-nokey', false);
    await chat.send('hello');
    expect(published.filter((entry) => entry.claim)).toEqual([]);
  });
});
