import { messageText } from '#core/transcript/message.ts';
import { describe, expect, it, vi } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import type { Message } from '#core/transcript/message.ts';
import type { ComputeClient } from '#io/compute/compute-client.ts';
import { AppDb } from '#io/db/app-db.ts';
import { SettingsRepository } from '#io/db/settings-repository.ts';
import { AppState } from '#state/app-state.svelte.ts';
import type { LabSessionStore } from '#state/lab-session-store.ts';
import { computeApi } from '#worker/compute-api.ts';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';

const compute = {
  generation: 1,
  isRunning: true,
  run: <T>(task: (remote: typeof computeApi) => T) => Promise.resolve(task(computeApi)),
} as unknown as ComputeClient;

/** A session store that records what a commit would store. */
function recordingStore() {
  const commits: Array<{ sessionId: string; messages: readonly Message[]; systemPrompt: string | null }> = [];
  const store: LabSessionStore = {
    storeDocument: async () => ({ id: 'stored', title: null }),
    commitCompaction: async (sessionId, messages, details) => {
      commits.push({ sessionId, messages, systemPrompt: details.systemPrompt });
      return { id: `${sessionId}-next`, title: null };
    },
  };
  return { store, commits };
}

describe('ReplayState: saving a replay of the chat on screen', () => {
  it('stores the compacted conversation without its system prompt, which stays on the session', async () => {
    const { store, commits } = recordingStore();
    const app = new AppState({
      compute,
      settingsRepository: new SettingsRepository(new AppDb('replay-conversation-save')),
      sessions: store,
    });
    await app.start();
    await app.settings.setEstimator('rough');
    // The demo's conversation as a chat holds it: the system prompt on the session.
    const demo = buildDemoTranscript().messages;
    const systemPrompt = messageText(demo[0]!);
    app.showConversation(
      {
        sessionId: 'chat-1',
        title: 'Chat',
        model: null,
        systemPrompt,
        messages: demo.slice(1),
        state: createCompressorState(),
        lastSessionPromptTokens: 0,
        learnedContextLength: null,
      },
      true,
    );
    await vi.waitFor(() => expect(app.transcript.view?.count).toBe(demo.length));
    await app.replay.runAll();
    expect(app.replay.current?.compressed).toBe(true);
    const compacted = app.replay.current!.compression!.messages;
    // The replay compacts the request it sees, system prompt first (Hermes notes the compaction in it).
    expect(compacted[0]!.role).toBe('system');
    expect(messageText(compacted[0]!).startsWith(systemPrompt)).toBe(true);
    app.replay.saveAsContinuation();
    await app.replay.review!.commit();
    await vi.waitFor(() => expect(commits).toHaveLength(1));
    expect(commits[0]!.sessionId).toBe('chat-1');
    expect(commits[0]!.systemPrompt).toBe(compacted[0]!.content);
    expect(commits[0]!.messages).toEqual(compacted.slice(1));
    expect(commits[0]!.messages.some((message) => message.role === 'system')).toBe(false);
  });
});
