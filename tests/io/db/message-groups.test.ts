import { describe, expect, it } from 'vitest';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import type { CompactionEpochDetails } from '#core/sessions/compaction-epoch.ts';
import type { Message } from '#core/transcript/message.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import type { AppDb } from '#io/db/app-db.ts';
import {
  addGroupedMessages,
  expandMessageRows,
  isMessageGroup,
  MESSAGE_GROUP_MAX,
  readMessageRows,
  rowsForNewMessages,
  sessionMessageIds,
} from '#io/db/message-groups.ts';
import type { SessionRepository } from '#io/db/session-repository.ts';
import {
  assistant,
  expectOk,
  openFixtureRepository,
  user,
} from '#tests/helpers/session-repository-fixture.ts';
import { IN_PLACE_EPOCH_SETTINGS } from '#tests/helpers/epoch-settings-fixture.ts';

/** A seeded generator (LCG), so a failing case can be run again by its seed. */
function seeded(seed: number): (below: number) => number {
  let state = seed >>> 0;
  return (below) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 2 ** 32) * below);
  };
}

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'quokka', 'zebra'];

function transcript(random: (below: number) => number, count: number): Message[] {
  return Array.from({ length: count }, (_, index) => {
    const words = Array.from({ length: 1 + random(5) }, () => WORDS[random(WORDS.length)]!);
    const text = `${words.join(' ')} m${index}`;
    return index % 2 === 0 ? user(text) : assistant(text);
  });
}

const CHAT = { title: 'Grouped', source: 'import', model: 'claude-sonnet-4', systemPrompt: null } as const;

const epochDetails = (summary: string, live: number): CompactionEpochDetails => ({
  reason: 'manual',
  attemptId: null,
  reviewed: true,
  summaries: [
    { body: summary, span: { start: 1, end: live - 1, kind: 'middle' }, edited: false, fallback: false },
  ],
  boundaries: {
    messagesBefore: live,
    messagesAfter: 3,
    head: 1,
    middle: live - 2,
    tail: 1,
    kept: 2,
    pruned: 0,
    summarized: live - 2,
    dropped: 0,
    spans: [{ start: 1, end: live - 1, kind: 'middle' }],
  },
  settings: IN_PLACE_EPOCH_SETTINGS,
  tokensBefore: 100,
  tokensAfter: 40,
  assessment: null,
});

describe('rowsForNewMessages', () => {
  it('stands for every message at its own id, groups only of live unpinned runs, pins alone', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = seeded(seed);
      const count = random(300);
      const messages = transcript(random, count);
      const pinned = new Set(Array.from({ length: random(6) }, () => random(Math.max(1, count))));
      const firstId = 1 + random(5000);
      const rows = rowsForNewMessages('s', messages, firstId, 7, (index) => pinned.has(index));
      const expanded = expandMessageRows(rows);
      expect(
        expanded.map((row) => row.id),
        `seed ${seed}`,
      ).toEqual(messages.map((_, index) => firstId + index));
      expect(expanded.map((row) => row.message)).toEqual(messages);
      expect(expanded.flatMap((row, index) => (row.pinned === 1 ? [index] : []))).toEqual(
        [...pinned].filter((index) => index < count).sort((a, b) => a - b),
      );
      for (const row of rows)
        if (isMessageGroup(row)) {
          expect(row.messages.length).toBeGreaterThan(1);
          expect(row.messages.length).toBeLessThanOrEqual(MESSAGE_GROUP_MAX);
          expect(row.id - row.firstId + 1).toBe(row.messages.length);
        }
      if (pinned.size === 0) expect(rows.length).toBe(Math.ceil(count / MESSAGE_GROUP_MAX));
    }
  });
});

describe('grouped message rows', () => {
  it('an import writes a few rows, and every message is found by its id, its session and a search', async () => {
    const { db, repository } = openFixtureRepository('groups-read');
    const messages = transcript(seeded(7), 300);
    const session = expectOk(
      await repository.createSessionInBatches(CHAT, messages, { batchSize: 150, pinned: [70] }),
    );
    const rows = await db.messages.toArray();
    expect(rows.length).toBeLessThan(15);
    const ids = await sessionMessageIds(db, session.id);
    expect(ids).toEqual(messages.map((_, index) => index + 1));
    const entries = await repository.loadMessageEntries(session.id);
    expect(entries.map((entry) => entry.id)).toEqual(ids);
    expect(entries.filter((entry) => entry.pinned).map((entry) => entry.id)).toEqual([71]);
    // The first, a middle, a group's last id, one past the end, and every id at once.
    const probe = [1, 40, 150, 301, 999];
    expect((await readMessageRows(db, probe)).map((row) => row?.message)).toEqual([
      messages[0],
      messages[39],
      messages[149],
      messages[300],
      undefined,
    ]);
    expect((await readMessageRows(db, ids)).map((row) => row?.message)).toEqual(messages);
    const [hit] = await repository.search('m100');
    expect(hit).toMatchObject({ messageId: 101, sessionId: session.id });
    expect(hit?.contextBefore).toContain('m99');
    expect(hit?.contextAfter).toContain('m101');
    expect((await repository.search('m100', { sessionIds: [session.id] })).length).toBe(1);
    expect(await repository.search('m100', { sessionIds: ['elsewhere'] })).toEqual([]);
    db.close();
  });

  it('runs work while its rows are written, inside the transaction, and a failure there stores nothing', async () => {
    const { db } = openFixtureRepository('groups-while-writing');
    const messages = transcript(seeded(3), 100);
    let calls = 0;
    const added = await db.transaction('rw', db.messages, () =>
      addGroupedMessages(db, 's1', messages, 0, { whileWriting: () => void (calls += 1) }),
    );
    expect(calls).toBe(1);
    expect(added.ids).toEqual(messages.map((_, index) => index + 1));
    expect(expandMessageRows(await db.messages.toArray()).map((row) => row.message)).toEqual(messages);
    const failing = db.transaction('rw', db.messages, () =>
      addGroupedMessages(db, 's2', messages, 0, {
        whileWriting: () => {
          throw new Error('interrupted');
        },
      }),
    );
    await expect(failing).rejects.toThrow('interrupted');
    expect(await sessionMessageIds(db, 's2')).toEqual([]);
    expect(await db.messages.count()).toBe(rowsForNewMessages('s1', messages.slice(1), 2, 0).length + 1);
    db.close();
  });

  it('a hit beside another session’s message shows the nearest grouped message of its own as context', async () => {
    const { db, repository } = openFixtureRepository('groups-neighbours');
    const session = expectOk(
      await repository.createSessionInBatches(CHAT, [
        user('first zulu'),
        assistant('middle'),
        user('last of group'),
      ]),
    );
    const other = expectOk(await repository.createSession({ ...CHAT, title: 'Other' }, [user('elsewhere')]));
    expectOk(await repository.appendMessages(session.id, [user('needle after')]));
    expectOk(await repository.appendMessages(other.id, [user('more elsewhere')]));
    expectOk(await repository.appendMessages(session.id, [user('closing')]));
    const [hit] = await repository.search('needle');
    expect(hit).toMatchObject({ messageId: 5, contextBefore: 'last of group', contextAfter: 'closing' });
    const [first] = await repository.search('zulu');
    expect(first).toMatchObject({ messageId: 1, contextBefore: null, contextAfter: 'middle' });
    db.close();
  });

  it('pinning a grouped message splits only its group, into rows at the same ids', async () => {
    const { db, repository } = openFixtureRepository('groups-pin');
    const messages = transcript(seeded(3), 200);
    const session = expectOk(await repository.createSessionInBatches(CHAT, messages, { batchSize: 200 }));
    const before = await db.messages.count();
    expectOk(await repository.setMessagePinned(session.id, 100, true));
    const groupOf100 = MESSAGE_GROUP_MAX;
    expect(await db.messages.count()).toBe(before + groupOf100 - 1);
    const entries = await repository.loadMessageEntries(session.id);
    expect(entries.map((entry) => entry.message)).toEqual(messages);
    expect(entries.filter((entry) => entry.pinned).map((entry) => entry.id)).toEqual([100]);
    expectOk(await repository.setMessagePinned(session.id, 100, false));
    expect((await repository.loadMessageEntries(session.id)).some((entry) => entry.pinned)).toBe(false);
    db.close();
  });

  it('deleting a grouped session removes every row and every search posting', async () => {
    const { db, repository } = openFixtureRepository('groups-delete');
    const kept = expectOk(await repository.createSession({ ...CHAT, title: 'Kept' }, [user('quokka kept')]));
    const shardsBefore = await db.searchShards.toArray();
    const session = expectOk(
      await repository.createSessionInBatches(CHAT, transcript(seeded(5), 500), { batchSize: 120 }),
    );
    expectOk(await repository.deleteSession(session.id));
    expect(expandMessageRows(await db.messages.toArray()).map((row) => row.sessionId)).toEqual([kept.id]);
    expect(await db.searchShards.toArray()).toEqual(shardsBefore);
    expect((await repository.search('quokka')).map((hit) => hit.sessionId)).toEqual([kept.id]);
    db.close();
  });

  /**
   * The same history stored two ways — grouped by a batched import, and one row per message as
   * a chat stores it — then the same random operations on both: every answer and every table
   * (rows aside) must be the same. Ids match because both start from an empty table.
   */
  it('behaves exactly as one row per message under pins, compactions, undo, redo, appends and search', async () => {
    for (let seed = 1; seed <= 12; seed++) {
      const random = seeded(seed * 7919);
      const messages = transcript(random, 2 + random(260));
      const pinned = [...new Set(Array.from({ length: random(4) }, () => random(messages.length)))];
      const grouped = openFixtureRepository(`groups-diff-${seed}-g`, { preset: () => HERMES_2026_07 });
      const single = openFixtureRepository(`groups-diff-${seed}-s`, { preset: () => HERMES_2026_07 });
      const root = expectOk(
        await grouped.repository.createSessionInBatches(CHAT, messages, {
          batchSize: 1 + random(200),
          pinned,
        }),
      );
      const rootSingle = expectOk(await single.repository.createSession(CHAT, messages));
      expect(rootSingle.id).toBe(root.id);
      for (const index of pinned)
        expectOk(await single.repository.setMessagePinned(root.id, index + 1, true));
      expect(expandMessageRows(await single.db.messages.toArray()).length).toBe(messages.length);

      const both = async <T>(operation: (repository: SessionRepository) => Promise<T>): Promise<T> => {
        const [onGroups, onSingles] = [
          await operation(grouped.repository),
          await operation(single.repository),
        ];
        expect(onGroups, `seed ${seed}`).toEqual(onSingles);
        return onGroups;
      };
      for (let step = 0; step < 10; step++) {
        const tip = await both((repository) => repository.getCompressionTip(root.id));
        const live = await both((repository) => repository.loadMessageEntries(tip));
        const word = WORDS[random(WORDS.length)]!;
        switch (random(7)) {
          case 0: {
            const entry = live[random(live.length)];
            if (entry) await both((repository) => repository.setMessagePinned(tip, entry.id, !entry.pinned));
            break;
          }
          case 1:
          case 2: {
            if (live.length < 3) break;
            const compacted = [live[0]!.message, user(`[CONTEXT COMPACTION] ${word}`), live.at(-1)!.message];
            const info = {
              compressorState: createCompressorState({ compressionCount: step + 1 }),
              systemPrompt: null,
              basisMessageIds: live.map((entry) => entry.id),
              epoch: epochDetails(word, live.length),
            };
            if (random(2) === 0) await both((repository) => repository.compactInPlace(tip, compacted, info));
            else await both((repository) => repository.rotateForCompression(tip, compacted, info));
            break;
          }
          case 3:
            await both((repository) => repository.undoCompaction(tip));
            break;
          case 4:
            await both((repository) => repository.redoCompaction(tip));
            break;
          case 5:
            await both((repository) => repository.appendMessages(tip, [user(`${word} appended ${step}`)]));
            break;
          default:
            await both((repository) => repository.search(word, { limit: 50 }));
        }
        await both((repository) => repository.search(word, { limit: 200 }));
        await both((repository) => repository.search(`${word.slice(0, 2)}*`, { limit: 30 }));
        await both(async (repository) => {
          const epochs = await repository.listConversationCompactions(root.id);
          return Promise.all(epochs.map((epoch) => repository.loadEpochMessages(epoch.id)));
        });
      }
      const tables = async (db: AppDb) => ({
        sessions: await db.sessions.toArray(),
        compactions: await db.compactions.toArray(),
        searchShards: await db.searchShards.toArray(),
        messages: expandMessageRows(await db.messages.orderBy(':id').toArray()),
      });
      expect(await tables(grouped.db), `seed ${seed}`).toEqual(await tables(single.db));
      for (const session of await grouped.repository.listSessions())
        await both((repository) => repository.deleteSession(session.id));
      expect(await grouped.db.messages.count()).toBe(0);
      expect(await grouped.db.searchShards.count()).toBe(0);
      grouped.db.close();
      single.db.close();
    }
  });
});
