/**
 * Pinned messages in the session store (ROUND2 §3): a pin is a flag on the message's row, set
 * and cleared by `setMessagePinned`, stored with a new session and with a compaction's rows, and
 * carried by its row through undo and redo.
 */
import { describe, expect, it } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import type { CompactionEpochDetails } from '#core/sessions/compaction-epoch.ts';
import type { Message } from '#core/transcript/message.ts';
import {
  assistant,
  expectOk,
  openFixtureRepository,
  snapshotDatabase,
  system,
  user,
} from '#tests/helpers/session-repository-fixture.ts';
import { IN_PLACE_EPOCH_SETTINGS } from '#tests/helpers/epoch-settings-fixture.ts';

const CHAT = { source: 'chat', model: null, systemPrompt: 'You help.', title: null } as const;
const ORIGINAL: Message[] = [
  system('You help.'),
  user('Never touch the public API'),
  assistant('Understood'),
  user('Now rename the helper'),
  assistant('Renamed'),
];
/** A compaction that keeps the system prompt, puts the pinned #1 back after its summary and keeps the last message. */
const COMPACTED: Message[] = [
  ORIGINAL[0]!,
  user('[CONTEXT COMPACTION] the helper was renamed'),
  ORIGINAL[1]!,
  ORIGINAL[4]!,
];
const details: CompactionEpochDetails = {
  reason: 'manual',
  attemptId: null,
  reviewed: false,
  summaries: [],
  boundaries: {
    messagesBefore: 5,
    messagesAfter: 4,
    head: 1,
    middle: 3,
    tail: 1,
    kept: 3,
    pruned: 0,
    summarized: 2,
    dropped: 0,
    spans: [],
  },
  settings: { ...IN_PLACE_EPOCH_SETTINGS, model: null },
  tokensBefore: 100,
  tokensAfter: 60,
  assessment: null,
};
const commit = { compressorState: createCompressorState({ compressionCount: 1 }), systemPrompt: 'You help.' };

const pinnedIndices = (entries: ReadonlyArray<{ pinned: boolean }>): number[] =>
  entries.flatMap((entry, index) => (entry.pinned ? [index] : []));

describe('setMessagePinned', () => {
  it('pins and unpins one stored message; the live transcript reads the flags back', async () => {
    const { db, repository } = openFixtureRepository('pins-set');
    const session = expectOk(await repository.createSession(CHAT, ORIGINAL));
    const entries = await repository.loadMessageEntries(session.id);
    expect(pinnedIndices(entries)).toEqual([]);
    expectOk(await repository.setMessagePinned(session.id, entries[3]!.id, true));
    expectOk(await repository.setMessagePinned(session.id, entries[1]!.id, true));
    expect(pinnedIndices(await repository.loadMessageEntries(session.id))).toEqual([1, 3]);
    // Pinning again changes nothing; unpinning removes the flag altogether.
    expectOk(await repository.setMessagePinned(session.id, entries[3]!.id, true));
    expectOk(await repository.setMessagePinned(session.id, entries[3]!.id, false));
    expect(pinnedIndices(await repository.loadMessageEntries(session.id))).toEqual([1]);
    const row = await db.messages.get(entries[3]!.id);
    expect(row && 'pinned' in row).toBe(false);
    // The messages themselves are untouched.
    expect(await repository.loadMessages(session.id)).toEqual(ORIGINAL);
    db.close();
  });

  it('refuses a message of another session or a session that does not exist, changing nothing', async () => {
    const { db, repository } = openFixtureRepository('pins-refused');
    const first = expectOk(await repository.createSession(CHAT, ORIGINAL));
    const second = expectOk(await repository.createSession(CHAT, [user('elsewhere')]));
    const [elsewhere] = await repository.loadMessageEntries(second.id);
    const before = await snapshotDatabase(db);
    expect(await repository.setMessagePinned(first.id, elsewhere!.id, true)).toEqual({
      ok: false,
      error: {
        type: 'MessageNotFound',
        sessionId: first.id,
        messageId: elsewhere!.id,
        message: `Message ${elsewhere!.id} is not stored in session ${first.id}.`,
      },
    });
    expect(await repository.setMessagePinned('no-such-session', elsewhere!.id, true)).toEqual({
      ok: false,
      error: { type: 'SessionNotFound', sessionId: 'no-such-session' },
    });
    expect(await snapshotDatabase(db)).toEqual(before);
    db.close();
  });
});

describe('pins stored with messages', () => {
  it('a batched store writes the pinned rows of every batch', async () => {
    const { db, repository } = openFixtureRepository('pins-batches');
    const messages = Array.from({ length: 10 }, (_, index) => user(`message ${index}`));
    const session = expectOk(
      await repository.createSessionInBatches({ ...CHAT, source: 'import' }, messages, {
        batchSize: 3,
        pinned: [0, 4, 9],
      }),
    );
    expect(pinnedIndices(await repository.loadMessageEntries(session.id))).toEqual([0, 4, 9]);
    db.close();
  });

  it('an in-place compaction pins the rows it names; undo brings the old pins back, redo the new ones', async () => {
    const { db, repository } = openFixtureRepository('pins-in-place', { preset: () => HERMES_2026_07 });
    const session = expectOk(await repository.createSession(CHAT, ORIGINAL));
    const entries = await repository.loadMessageEntries(session.id);
    expectOk(await repository.setMessagePinned(session.id, entries[1]!.id, true));
    expectOk(
      await repository.compactInPlace(session.id, COMPACTED, {
        ...commit,
        epoch: details,
        basisMessageIds: entries.map((entry) => entry.id),
        pinned: [2],
      }),
    );
    const after = await repository.loadMessageEntries(session.id);
    expect(after.map((entry) => entry.message)).toEqual(COMPACTED);
    expect(pinnedIndices(after)).toEqual([2]);

    expectOk(await repository.undoCompaction(session.id));
    const undone = await repository.loadMessageEntries(session.id);
    expect(undone.map((entry) => entry.message)).toEqual(ORIGINAL);
    expect(pinnedIndices(undone)).toEqual([1]);

    expectOk(await repository.redoCompaction(session.id));
    expect(pinnedIndices(await repository.loadMessageEntries(session.id))).toEqual([2]);
    db.close();
  });

  it('a rotation pins the rows of the continuation it names, and the parent keeps its own', async () => {
    const { db, repository } = openFixtureRepository('pins-rotation');
    const session = expectOk(await repository.createSession(CHAT, ORIGINAL));
    const entries = await repository.loadMessageEntries(session.id);
    expectOk(await repository.setMessagePinned(session.id, entries[1]!.id, true));
    const child = expectOk(
      await repository.rotateForCompression(session.id, COMPACTED, {
        ...commit,
        epoch: details,
        pinned: [2],
      }),
    );
    expect(pinnedIndices(await repository.loadMessageEntries(child.id))).toEqual([2]);
    expect(pinnedIndices(await repository.loadMessageEntries(session.id))).toEqual([1]);
    db.close();
  });
});
