import { describe, expect, it } from 'vitest';
import type { Message } from '#core/transcript/message.ts';
import { deleteOrphanedMessages } from '#io/db/delete-orphaned-messages.ts';
import { InMemoryLockManager } from '#io/db/in-memory-lock-manager.ts';
import { expandMessageRows, rowsForNewMessages, sessionMessageIds } from '#io/db/message-groups.ts';
import type { SessionEvent } from '#io/db/session-events.ts';
import { SEARCH_BUCKET_SIZE_MESSAGES } from '#io/db/search-term-row.ts';
import { IMPORT_LOCK_PREFIX, type ImportBatchStep } from '#io/db/store-session-in-batches.ts';
import {
  assistant,
  expectOk,
  openFixtureRepository,
  snapshotDatabase,
  user,
} from '#tests/helpers/session-repository-fixture.ts';

const IMPORT = { title: 'Big import', source: 'import', model: null, systemPrompt: null } as const;

/** `count` alternating user/assistant messages; message i holds the word `wordN` with N = i. */
const conversation = (count: number, prefix = 'word'): Message[] =>
  Array.from({ length: count }, (_, index) =>
    index % 2 === 0 ? user(`ask ${prefix}${index} please`) : assistant(`done ${prefix}${index}`),
  );

/** A database that already holds a session, so a failed import must leave its rows and postings alone. */
async function withExistingSession(label: string) {
  const fixture = openFixtureRepository(label);
  expectOk(
    await fixture.repository.createSession(
      { title: 'Earlier', source: 'chat', model: null, systemPrompt: null },
      [user('an earlier zanzibar question'), assistant('an earlier answer')],
    ),
  );
  return { ...fixture, before: await snapshotDatabase(fixture.db) };
}

describe('createSessionInBatches', () => {
  it('stores every message in batches, reports progress, and makes them a searchable session at the end', async () => {
    const events: SessionEvent[] = [];
    const { db, repository } = openFixtureRepository('batches', {
      events: { publish: (e) => events.push(e) },
    });
    const messages = conversation(10);
    const progress: number[] = [];
    const session = expectOk(
      await repository.createSessionInBatches(IMPORT, messages, {
        batchSize: 3,
        onProgress: (stored) => void progress.push(stored),
      }),
    );
    expect(progress).toEqual([3, 6, 9, 10]);
    expect(session).toMatchObject({ title: 'Big import', source: 'import', messageCount: 10 });
    expect(await repository.loadMessages(session.id)).toEqual(messages);
    expect((await repository.search('word7')).map((hit) => hit.sessionId)).toEqual([session.id]);
    expect(await repository.listSessions()).toEqual([session]);
    expect(events).toEqual([{ type: 'session-created', id: session.id }]);
    db.close();
  });

  it('writes each search posting row once, when no later message can fall into its bucket', async () => {
    const { db, repository } = openFixtureRepository('batches-postings');
    const messages = conversation(SEARCH_BUCKET_SIZE_MESSAGES + 10, 'term');
    const rowsAfterBatch: number[] = [];
    const session = expectOk(
      await repository.createSessionInBatches(IMPORT, messages, {
        batchSize: 500,
        onProgress: async () => void rowsAfterBatch.push(await db.searchShards.count()),
      }),
    );
    // Ids start at 1: the first bucket (ids 1–1023) is complete once the third batch reaches
    // bucket 1; the rest is written with the session row.
    expect(rowsAfterBatch[0]).toBe(0);
    expect(rowsAfterBatch[1]).toBe(0);
    expect(rowsAfterBatch[2]).toBeGreaterThan(0);
    const hits = await repository.search(`term${SEARCH_BUCKET_SIZE_MESSAGES + 5}`);
    expect(hits.map((hit) => hit.sessionId)).toEqual([session.id]);
    expect(new Set((await repository.search('term3')).map((hit) => hit.sessionId))).toEqual(
      new Set([session.id]),
    );
    db.close();
  });

  it('keeps the postings of a message another tab appends into the import’s id range meanwhile', async () => {
    const { db, repository } = openFixtureRepository('batches-interleaved');
    const other = expectOk(
      await repository.createSession({ title: 'Chat', source: 'chat', model: null, systemPrompt: null }, []),
    );
    let appended = false;
    const session = expectOk(
      await repository.createSessionInBatches(IMPORT, conversation(SEARCH_BUCKET_SIZE_MESSAGES * 2), {
        batchSize: 300,
        onProgress: async () => {
          if (appended) return;
          appended = true;
          // Shares the word "ask" with every imported prompt: one posting row per bucket for both.
          expectOk(await repository.appendMessages(other.id, [user('ask the interloper')]));
        },
      }),
    );
    const hits = await repository.search('ask interloper');
    expect(hits.map((hit) => hit.sessionId)).toEqual([other.id]);
    expect((await repository.search('ask word1500')).map((hit) => hit.sessionId)).toEqual([session.id]);
    db.close();
  });

  it('shows nothing of an import until its last batch: no session, no hit, no listed row', async () => {
    const { db, repository } = openFixtureRepository('batches-invisible');
    const seen: Array<{ sessions: number; hits: number; messages: number }> = [];
    expectOk(
      await repository.createSessionInBatches(
        IMPORT,
        conversation(SEARCH_BUCKET_SIZE_MESSAGES * 2, 'hidden'),
        {
          batchSize: 600,
          onProgress: async () => {
            seen.push({
              sessions: (await repository.listSessions()).length,
              hits: (await repository.search('hidden4 please')).length,
              messages: expandMessageRows(await db.messages.toArray()).length,
            });
          },
        },
      ),
    );
    // After batch 2 the first bucket's postings are written, yet the search still finds nothing.
    expect(seen.slice(0, 3)).toEqual([
      { sessions: 0, hits: 0, messages: 600 },
      { sessions: 0, hits: 0, messages: 1200 },
      { sessions: 0, hits: 0, messages: 1800 },
    ]);
    expect((await repository.search('hidden4 please')).length).toBe(1);
    db.close();
  });

  it('removes everything it wrote when cancelled between batches', async () => {
    const { db, repository, before } = await withExistingSession('batches-cancel');
    const controller = new AbortController();
    const result = await repository.createSessionInBatches(
      IMPORT,
      conversation(SEARCH_BUCKET_SIZE_MESSAGES * 2),
      {
        batchSize: 700,
        signal: controller.signal,
        onProgress: (stored) => {
          if (stored >= 1400) controller.abort();
        },
      },
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.type).toBe('StoreCancelled');
    expect(await snapshotDatabase(db)).toEqual(before);
    expect((await repository.search('zanzibar')).length).toBe(1);
    db.close();
  });

  for (const step of ['insert-messages', 'index-terms'] as const satisfies readonly ImportBatchStep[]) {
    it(`leaves nothing half-stored when a batch fails midway (after ${step})`, async () => {
      const { db, repository, before } = await withExistingSession(`batches-fail-${step}`);
      const failing = repository.createSessionInBatches(
        IMPORT,
        conversation(SEARCH_BUCKET_SIZE_MESSAGES * 2),
        {
          batchSize: 500,
          onBatchStep: (name, batch) => {
            if (name === step && batch === 3) throw new Error(`crashed after ${name}`);
          },
        },
      );
      await expect(failing).rejects.toThrow(`crashed after ${step}`);
      expect(await snapshotDatabase(db)).toEqual(before);
      db.close();
    });
  }

  it('turns a full disk in the middle into StorageFull, with nothing of the import kept', async () => {
    const { db, repository, before } = await withExistingSession('batches-quota');
    const result = await repository.createSessionInBatches(IMPORT, conversation(2_000), {
      batchSize: 400,
      onBatchStep: (name, batch) => {
        if (name === 'insert-messages' && batch === 2)
          throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      },
    });
    expect(!result.ok && result.error.type).toBe('StorageFull');
    expect(await snapshotDatabase(db)).toEqual(before);
    db.close();
  });

  it('refuses at once, writing nothing, when the storage estimate has no room for it', async () => {
    const { db, repository } = openFixtureRepository('batches-room', {
      storageEstimate: async () => ({ quotaBytes: 1_000_000, usageBytes: 999_000 }),
    });
    const big = Array.from({ length: 20 }, () => user('x'.repeat(100_000)));
    const result = await repository.createSessionInBatches(IMPORT, big);
    expect(!result.ok && result.error.type).toBe('StorageFull');
    expect(await db.messages.count()).toBe(0);
    db.close();
  });
});

describe('deleteOrphanedMessages', () => {
  /** Rows an import wrote before its tab closed: messages and postings, no session row. */
  async function interruptedImport(label: string) {
    const fixture = await withExistingSession(label);
    // Write what a closed tab would have left: the committed batches of an import, no session.
    const orphanId = '20270115_090000_0a0a0a';
    const lost = conversation(1_500, 'lost');
    const firstId = Number(await fixture.db.messages.orderBy(':id').lastKey()) + 1;
    await fixture.db.messages.bulkAdd(rowsForNewMessages(orphanId, lost, firstId, 0));
    const ids = lost.map((_, index) => firstId + index);
    await fixture.db.transaction('rw', fixture.db.searchShards, () =>
      fixture.repository.searchIndex.add(
        ids.map((_, index) => [`lost${index}`, 'ask']),
        ids,
      ),
    );
    return { ...fixture, orphanId };
  }

  it('removes the messages and postings an interrupted import left, and nothing else', async () => {
    const { db, repository, before, orphanId } = await interruptedImport('orphans');
    expect((await sessionMessageIds(db, orphanId)).length).toBe(1_500);
    expect(await deleteOrphanedMessages(db, new InMemoryLockManager())).toBe(1_500);
    expect(await snapshotDatabase(db)).toEqual(before);
    expect((await repository.search('zanzibar')).length).toBe(1);
    db.close();
  });

  it('leaves an import that still holds its lock (another tab storing it) alone', async () => {
    const { db, orphanId } = await interruptedImport('orphans-locked');
    const locks = new InMemoryLockManager();
    let release!: () => void;
    const holding = locks.request(
      `${IMPORT_LOCK_PREFIX}${orphanId}`,
      {},
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    expect(await deleteOrphanedMessages(db, locks)).toBe(0);
    expect((await sessionMessageIds(db, orphanId)).length).toBe(1_500);
    release();
    await holding;
    expect(await deleteOrphanedMessages(db, locks)).toBe(1_500);
    db.close();
  });
});
