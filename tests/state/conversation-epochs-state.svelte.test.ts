// @vitest-environment jsdom
// Runes effects run only in the client build of Svelte, which the jsdom environment selects.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import { compactionEpochDetails } from '#core/sessions/compaction-epoch.ts';
import type { Message } from '#core/transcript/message.ts';
import type { Transcript } from '#core/transcript/transcript.ts';
import { InMemoryLockManager } from '#io/db/in-memory-lock-manager.ts';
import type { HistoryChange } from '#state/conversation-epochs-state.svelte.ts';
import { inProcessStoredSessions } from '#tests/helpers/in-process-stored-sessions.ts';
import { SessionsState } from '#state/sessions-state.svelte.ts';
import {
  assistant,
  expectOk,
  openFixtureRepository,
  system,
  user,
} from '#tests/helpers/session-repository-fixture.ts';
import { IN_PLACE_EPOCH_SETTINGS } from '#tests/helpers/epoch-settings-fixture.ts';

const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

const ORIGINAL: Message[] = [
  system('Be brief.'),
  user('The parser fails on src/lexer.ts'),
  assistant('KeyError: token in the lexer'),
  user('Fix it'),
  assistant('Fixed'),
];
const details = (summary: string) =>
  compactionEpochDetails({
    reason: 'manual',
    attemptId: null,
    reviewed: true,
    fates: new Uint8Array([0, 2, 2, 0, 0]),
    messagesAfter: 4,
    summaries: [{ body: summary, span: { start: 1, end: 3, kind: 'middle' }, fallback: false }],
    originalBodies: ['the summariser wrote this'],
    requestTokensBefore: 120,
    requestTokensAfter: 60,
    assessment: null,
    settings: { ...IN_PLACE_EPOCH_SETTINGS, contextLength: 64_000, thresholdPercent: 0.75, model: null },
  });

async function harness(label: string) {
  const { db, repository } = openFixtureRepository(label, { preset: () => HERMES_2026_07 });
  const session = expectOk(
    await repository.createSession(
      { title: 'Lexer bug', source: 'chat', model: null, systemPrompt: 'Be brief.' },
      ORIGINAL,
    ),
  );
  const compacted = [ORIGINAL[0]!, user('[CONTEXT COMPACTION] lexer fixed'), ...ORIGINAL.slice(3)];
  expectOk(
    await repository.compactInPlace(session.id, compacted, {
      compressorState: createCompressorState({ compressionCount: 1 }),
      systemPrompt: 'Be brief.',
      epoch: details('lexer fixed'),
    }),
  );
  const opened: Transcript[] = [];
  const changes: HistoryChange[] = [];
  const sessions = new SessionsState({
    repository,
    preset: () => HERMES_2026_07,
    stored: inProcessStoredSessions(repository),
    openInWorkspace: async () => true,
    openReadOnly: async (transcript) => void opened.push(transcript),
    onHistoryChanged: (change) => void changes.push(change),
    locks: new InMemoryLockManager(),
  });
  const stop = $effect.root(() => {
    $effect(() => {
      void sessions.conversations;
      void sessions.compactions.epochs;
    });
  });
  cleanups.push(() => {
    stop();
    db.close();
  });
  await vi.waitFor(() => expect(sessions.conversations).toHaveLength(1));
  sessions.select(session.id);
  await vi.waitFor(() => expect(sessions.compactions.epochs).toHaveLength(1));
  return { sessions, repository, session, compacted, opened, changes };
}

describe('ConversationEpochsState', () => {
  it('lists the epochs of an in-place session and opens each side read-only', async () => {
    const { sessions, session, compacted, opened } = await harness('epochs-open');
    const [epoch] = sessions.compactions.epochs;
    expect(epoch).toMatchObject({ number: 1, mode: 'in-place', status: 'applied', sessionId: session.id });
    expect(sessions.compactions.undoTarget?.id).toBe(epoch!.id);
    expect(await sessions.compactions.open(epoch!, 'before')).toBe(true);
    expect(await sessions.compactions.open(epoch!, 'after')).toBe(true);
    expect(opened.map((transcript) => transcript.messages)).toEqual([ORIGINAL, compacted]);
    expect(opened[0]!.metadata.title).toBe('Lexer bug — compaction 1, what it replaced (read-only)');
  });

  it('exports an epoch as Markdown and JSON files named after the conversation', async () => {
    const { sessions, session } = await harness('epochs-export');
    const [epoch] = sessions.compactions.epochs;
    const markdown = sessions.compactions.exportFile(epoch!, 'markdown');
    expect(markdown.fileName).toBe(`lexer-bug-${session.id}-compaction-1.md`);
    expect(await markdown.blob.text()).toContain('## Summary (messages 1–2, edited in review)');
    const json = sessions.compactions.exportFile(epoch!, 'json');
    expect(json.mimeType).toBe('application/json');
    expect(await json.blob.text()).toContain('"format": "context-lab-compaction"');
  });

  it('undoes and redoes from the panel, live, and tells the chat where the conversation is', async () => {
    const { sessions, repository, session, compacted, changes } = await harness('epochs-undo');
    expect(await sessions.compactions.undo()).toBe(true);
    await vi.waitFor(() => expect(sessions.compactions.epochs[0]?.status).toBe('undone'));
    expect(await repository.loadMessages(session.id)).toEqual(ORIGINAL);
    expect(changes).toEqual([{ sessionIds: [session.id], liveSessionId: session.id }]);
    expect(sessions.compactions.undoTarget).toBeNull();
    expect(await sessions.compactions.redo()).toBe(true);
    await vi.waitFor(() => expect(sessions.compactions.epochs[0]?.status).toBe('applied'));
    expect(await repository.loadMessages(session.id)).toEqual(compacted);
    expect(sessions.compactions.notice?.text).toBe('Compaction 1 applied again.');
  });
});
