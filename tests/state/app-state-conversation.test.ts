import { describe, expect, it, vi } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import type { Message } from '#core/transcript/message.ts';
import type { ComputeClient } from '#io/compute/compute-client.ts';
import { AppDb } from '#io/db/app-db.ts';
import { SettingsRepository } from '#io/db/settings-repository.ts';
import { AppState } from '#state/app-state.svelte.ts';
import type { ChatConversation } from '#state/chat-conversation.ts';
import { computeApi } from '#worker/compute-api.ts';

/** The real worker API in this realm, recording which calls crossed the boundary. */
function inProcessCompute() {
  const calls: string[] = [];
  const api = new Proxy(computeApi, {
    get(target, key: string) {
      calls.push(key);
      return (target as Record<string, unknown>)[key];
    },
  });
  const compute = {
    generation: 1,
    isRunning: true,
    run: <T>(task: (remote: typeof computeApi) => T) => Promise.resolve(task(api)),
  } as unknown as ComputeClient;
  return { compute, calls };
}

let databases = 0;

async function startedApp() {
  const { compute, calls } = inProcessCompute();
  const app = new AppState({
    compute,
    settingsRepository: new SettingsRepository(new AppDb(`app-conversation-${++databases}`)),
  });
  await app.start();
  await app.settings.setEstimator('rough');
  return { app, calls };
}

const turn = (index: number): Message[] => [
  { role: 'user', content: `Question ${index}: where are ledger rows written?` },
  { role: 'assistant', content: `Answer ${index}: in ledger/write.py.` },
];

function conversation(
  messages: readonly Message[],
  overrides: Partial<ChatConversation> = {},
): ChatConversation {
  return {
    sessionId: 'chat-1',
    title: 'Ledger chat',
    model: 'claude-haiku-4-5',
    systemPrompt: 'Be brief.',
    messages,
    state: createCompressorState(),
    lastSessionPromptTokens: 0,
    learnedContextLength: null,
    ...overrides,
  };
}

/** Waits until the workspace shows `count` messages and a plan of them. */
async function shows(app: AppState, count: number): Promise<void> {
  await vi.waitFor(() => {
    expect(app.transcript.view?.count).toBe(count);
    expect(app.plan.plan?.messageCount).toBe(count);
    expect(app.plan.status).toBe('ready');
  });
}

describe('AppState: the workspace follows the live chat', () => {
  it('turns to the chat when the user chats, and only then', async () => {
    const { app } = await startedApp();
    const demoCount = app.transcript.view!.count;
    app.showConversation(conversation(turn(1)), false);
    expect(app.currentSource).toBe('demo');
    await shows(app, demoCount);

    app.showConversation(conversation(turn(1)), true);
    expect(app.currentSource).toBe('chat');
    expect(app.currentSessionId).toBe('chat-1');
    // The request context: the system prompt first, then the conversation, with the chat's tools.
    await shows(app, 3);
    expect(app.transcript.view!.roleOf(0)).toBe('system');
    expect(app.transcript.metadata).toMatchObject({ title: 'Ledger chat', model: 'claude-haiku-4-5' });
    expect(app.transcript.metadata?.tools?.length).toBeGreaterThan(0);
    // Planned as the loop decides, at the model's window.
    expect(app.plan.plan!.live).toBeDefined();
    expect(app.plan.plan!.windowTokens).toBe(app.provider.contextWindow);
    expect(app.plan.plan!.toolCount).toBe(app.transcript.metadata!.tools!.length);
  });

  it('appends a new turn, re-plans a new loop state without the document, and reopens after a compaction', async () => {
    const { app, calls } = await startedApp();
    const first = turn(1);
    app.showConversation(conversation(first), true);
    await shows(app, 3);

    calls.length = 0;
    const grown = [...first, ...turn(2)];
    app.showConversation(conversation(grown), false);
    await shows(app, 5);
    expect(calls).toContain('appendToDocument');
    expect(calls).not.toContain('openDocument');

    calls.length = 0;
    const state = createCompressorState({ lastPromptTokens: 1_234 });
    app.showConversation(conversation(grown, { state, lastSessionPromptTokens: 1_234 }), false);
    await vi.waitFor(() => expect(app.plan.plan!.live?.hygiene).toMatchObject({ tokensUsed: 1_234 }));
    expect(calls.filter((call) => call !== 'plan')).toEqual([]);
    expect(app.plan.options().state).toBe(state);

    calls.length = 0;
    app.workspace.jumpTo(4);
    const compacted: Message[] = [{ role: 'user', content: 'Summary of turns 1–2.' }, ...turn(3)];
    app.showConversation(
      conversation(compacted, { state: createCompressorState({ compressionCount: 1 }) }),
      false,
    );
    await shows(app, 4);
    expect(calls).toContain('openDocument');
    expect(app.workspace.selectedIndex).toBeNull();
  });

  it('shows a burst of changes once, newest last', async () => {
    const { app, calls } = await startedApp();
    let messages: Message[] = [];
    for (let index = 1; index <= 5; index++) {
      messages = [...messages, ...turn(index)];
      app.showConversation(conversation(messages), index === 1);
    }
    await shows(app, 11);
    expect(
      calls.filter((call) => call === 'openDocument' || call === 'appendToDocument').length,
    ).toBeLessThan(5);
  });

  it('plans at a window an overflow revealed, when it is smaller than the model’s', async () => {
    const { app } = await startedApp();
    app.showConversation(conversation(turn(1), { learnedContextLength: 50_000 }), true);
    await shows(app, 3);
    expect(app.plan.plan!.windowTokens).toBe(Math.min(50_000, app.provider.contextWindow));
  });

  it('leaves the chat for the demo on request, until the user chats again', async () => {
    const { app } = await startedApp();
    const demoCount = app.transcript.view!.count;
    app.showConversation(conversation(turn(1)), true);
    await shows(app, 3);
    await app.showDemo();
    expect(app.currentSource).toBe('demo');
    expect(app.currentConversation).toBeNull();
    await shows(app, demoCount);
    app.showConversation(conversation([...turn(1), ...turn(2)]), false);
    await shows(app, demoCount);
    expect(app.plan.plan!.live).toBeUndefined();
    app.showConversation(conversation([...turn(1), ...turn(2)]), true);
    await shows(app, 5);
  });

  it('ignores a new chat before its first message is stored', async () => {
    const { app } = await startedApp();
    app.showConversation(conversation([], { sessionId: null }), true);
    expect(app.currentSource).toBe('demo');
  });
});
