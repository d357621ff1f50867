import { describe, expect, it } from 'vitest';
import type Dexie from 'dexie';
import { AppDb } from '#io/db/app-db.ts';
import { expandMessageRows } from '#io/db/message-groups.ts';
import { SessionRepository } from '#io/db/session-repository.ts';
import { seedDatabaseAtVersion, uniqueDbName } from '#tests/helpers/open-db-at-version.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';

/** The schemas of past releases, oldest first. Append one entry whenever AppDb gains a version. */
const RELEASED_SCHEMAS: ReadonlyArray<Record<string, string>> = [
  {
    sessions: 'id, startedAt, parentSessionId',
    messages: '++id, sessionId, [sessionId+id]',
    settings: 'key',
  },
  {
    sessions: 'id, startedAt, parentSessionId, title',
    messages: '++id, sessionId, [sessionId+id]',
    settings: 'key',
    searchTerms: '[bucket+term]',
    persistedOutputs: 'fileName, sessionId',
    usageEvents: '++id, sessionId',
  },
  {
    sessions: 'id, startedAt, parentSessionId, title',
    messages: '++id, sessionId, [sessionId+id]',
    settings: 'key',
    searchTerms: '[bucket+term]',
    persistedOutputs: 'fileName, sessionId',
    usageEvents: '++id, sessionId',
    compactions: '++id, sessionId, childSessionId',
  },
  {
    sessions: 'id, startedAt, parentSessionId, title',
    messages: '++id, sessionId, [sessionId+id]',
    settings: 'key',
    searchShards: '[bucket+shard]',
    persistedOutputs: 'fileName, sessionId',
    usageEvents: '++id, sessionId',
    compactions: '++id, sessionId, childSessionId',
  },
  {
    sessions: 'id, startedAt, parentSessionId, title',
    messages: '++id, sessionId, [sessionId+id]',
    settings: 'key',
    searchShards: '[bucket+shard]',
    persistedOutputs: 'fileName, sessionId',
    usageEvents: '++id, sessionId',
    compactions: '++id, sessionId, childSessionId',
  }, // v5: the same tables; shards regrouped by their terms' first code point.
  {
    sessions: 'id, startedAt, parentSessionId, title',
    messages: '++id, sessionId, [sessionId+id], [sessionId+firstId]',
    settings: 'key',
    searchShards: '[bucket+shard]',
    persistedOutputs: 'fileName, sessionId',
    usageEvents: '++id, sessionId',
    compactions: '++id, sessionId, childSessionId',
  }, // v6: a messages row may hold a group of consecutive messages (message-groups.ts).
];

const repositoryFor = (db: AppDb): SessionRepository =>
  new SessionRepository(db, {
    now: () => 1_800_000_000_000,
    randomHex: () => 'abcdef',
    preset: () => HERMES_2026_04,
  });

/** Session `s1` with one live user message per `[id, content]`, as the old schemas stored them. */
async function seedOneSession(old: Dexie, messages: readonly (readonly [number, string])[]): Promise<void> {
  await old.table('sessions').add({ id: 's1', title: 'Old', startedAt: 1, parentSessionId: null });
  await old.table('messages').bulkAdd(
    messages.map(([id, content]) => ({
      id,
      sessionId: 's1',
      message: { role: 'user', content },
      createdAt: id,
      active: 1,
      compacted: 0,
    })),
  );
}

/** The ids of the messages a search finds, newest first. */
const searchHits =
  (db: AppDb) =>
  async (query: string): Promise<number[]> =>
    (await repositoryFor(db).search(query)).map((hit) => hit.messageId);

describe('AppDb migrations', () => {
  it('declares one version per released schema', async () => {
    const db = new AppDb(uniqueDbName('versions'));
    await db.open();
    expect(db.verno).toBe(RELEASED_SCHEMAS.length);
    db.close();
  });

  it('declares exactly the newest released schema', async () => {
    const db = new AppDb(uniqueDbName('schema'));
    await db.open();
    const declared = Object.fromEntries(
      db.tables.map((table) => [
        table.name,
        [table.schema.primKey.src, ...table.schema.indexes.map((index) => index.src)].join(', '),
      ]),
    );
    expect(declared).toEqual(RELEASED_SCHEMAS[RELEASED_SCHEMAS.length - 1]);
    db.close();
  });

  it('opens a database written by every earlier release without losing rows', async () => {
    for (let version = 1; version <= RELEASED_SCHEMAS.length; version++) {
      const name = uniqueDbName(`from-v${version}`);
      await seedDatabaseAtVersion(name, RELEASED_SCHEMAS.slice(0, version), async (old) => {
        await old.table('sessions').add({ id: 's1', title: 'Old', startedAt: 1, parentSessionId: null });
        await old.table('messages').bulkAdd([
          {
            sessionId: 's1',
            message: { role: 'user', content: 'hi' },
            createdAt: 1,
            active: 1,
            compacted: 0,
          },
          {
            sessionId: 's1',
            message: { role: 'assistant', content: 'hello' },
            createdAt: 2,
            active: 1,
            compacted: 0,
          },
        ]);
        await old.table('settings').put({ key: 'estimator', value: 'cl100k_base', updatedAt: 1 });
      });
      const db = new AppDb(name);
      const messages = expandMessageRows(
        await db.messages.where('[sessionId+id]').between(['s1', 0], ['s1', Infinity]).toArray(),
      );
      expect(messages.map((row) => row.message.content)).toEqual(['hi', 'hello']);
      expect((await db.sessions.get('s1'))?.title).toBe('Old');
      expect((await db.settings.get('estimator'))?.value).toBe('cl100k_base');
      db.close();
    }
  });

  it('upgrades v1 rows to v2: defaults filled, messages live and counted, everything searchable', async () => {
    const name = uniqueDbName('v1-to-v2');
    await seedDatabaseAtVersion(name, RELEASED_SCHEMAS.slice(0, 1), async (old) => {
      await old.table('sessions').bulkAdd([
        { id: 's1', title: 'Old chat', startedAt: 1_000, parentSessionId: null },
        { id: 's2', startedAt: 2_000, parentSessionId: 's1', endedAt: 'not a time', inputTokens: -5 },
      ]);
      await old.table('messages').bulkAdd([
        { sessionId: 's1', message: { role: 'user', content: 'Where is the tail cut?' }, createdAt: 10 },
        { sessionId: 's1', message: { role: 'assistant', content: 'In find_tail_cut.' }, createdAt: 30 },
        { sessionId: 's2', message: { role: 'user', content: '上下文压缩' }, createdAt: 20 },
        { sessionId: 's2', message: 'not a message', createdAt: 21 },
      ]);
    });
    const db = new AppDb(name);
    const s1 = await db.sessions.get('s1');
    expect(s1).toMatchObject({
      title: 'Old chat',
      source: 'chat',
      model: null,
      endedAt: null,
      endReason: null,
      compressionCount: 0,
      inputTokens: 0,
      estimatedCostUsd: 0,
      messageCount: 2,
      lastMessageAt: 30,
      metadata: null,
      compressorState: null,
      provider: null,
      baseUrl: null,
    });
    expect(await db.sessions.get('s2')).toMatchObject({
      title: null,
      endedAt: null,
      inputTokens: 0,
      messageCount: 2,
    });
    const rows = expandMessageRows(await db.messages.toArray());
    expect(rows.every((row) => row.active === 1 && row.compacted === 0)).toBe(true);

    const repository = repositoryFor(db);
    expect((await repository.search('tail')).map((hit) => hit.snippet)).toEqual([
      'In find_tail_cut.',
      'Where is the tail cut?',
    ]);
    expect((await repository.search('压缩')).map((hit) => [hit.sessionId, hit.sessionTitle])).toEqual([
      ['s2', null],
    ]);
    db.close();
  });

  it('upgrades v3 search term rows to v4 shards: every posting kept, every message still found', async () => {
    const name = uniqueDbName('v3-to-v4');
    // Rows as v3 wrote them: one per term and bucket of 1,024 message ids.
    const v3Terms = [
      { bucket: 0, term: 'tail', messageIds: [1, 2] },
      { bucket: 0, term: 'tab', messageIds: [2] },
      { bucket: 0, term: 't', messageIds: [1] },
      { bucket: 0, term: '压缩', messageIds: [3] },
      { bucket: 1, term: 'tail', messageIds: [1_024] },
      { bucket: 1, term: 'constructor', messageIds: [1_024] },
    ];
    await seedDatabaseAtVersion(name, RELEASED_SCHEMAS.slice(0, 3), async (old) => {
      await seedOneSession(old, [
        [1, 'the tail t'],
        [2, 'tail tab'],
        [3, '压缩'],
        [1_024, 'tail constructor'],
      ]);
      await old.table('searchTerms').bulkAdd(v3Terms);
    });
    const db = new AppDb(name);
    await db.open();
    expect(db.tables.map((table) => table.name)).not.toContain('searchTerms');
    const shards = await db.searchShards.toArray();
    // Then v5's regrouping: shards by the terms' first code point.
    expect(shards.map((row) => [row.bucket, row.shard, Object.fromEntries(row.terms)])).toEqual([
      [0, 't', { t: [1], tail: [1, 2], tab: [2] }],
      [0, '压', { 压缩: [3] }],
      [1, 'c', { constructor: [1_024] }],
      [1, 't', { tail: [1_024] }],
    ]);
    const found = searchHits(db);
    expect(await found('tail')).toEqual([1_024, 2, 1]);
    expect(await found('ta')).toEqual([1_024, 2, 1]);
    expect(await found('t')).toEqual([1_024, 2, 1]);
    expect(await found('t tail')).toEqual([1]);
    expect(await found('constructor')).toEqual([1_024]);
    expect(await found('constructor tail')).toEqual([1_024]);
    expect(await found('压')).toEqual([3]);
    db.close();
  });

  it('regroups v4 shards by their first code point in v5: every posting kept, every message still found', async () => {
    const name = uniqueDbName('v4-to-v5');
    // Shards as v4 wrote them: terms grouped by their first two code points.
    const v4Shards = [
      { bucket: 0, shard: 't', terms: new Map([['t', [1]]]) },
      {
        bucket: 0,
        shard: 'ta',
        terms: new Map([
          ['tail', [1, 2]],
          ['tab', [2]],
        ]),
      },
      { bucket: 0, shard: 'th', terms: new Map([['the', [1]]]) },
      { bucket: 0, shard: 'ub', terms: new Map([['uber', [3]]]) },
      { bucket: 1, shard: 'co', terms: new Map([['constructor', [1_024]]]) },
      { bucket: 1, shard: 'ta', terms: new Map([['tail', [1_024]]]) },
    ];
    await seedDatabaseAtVersion(name, RELEASED_SCHEMAS.slice(0, 4), async (old) => {
      await seedOneSession(old, [
        [1, 'the tail t'],
        [2, 'tail tab'],
        [3, 'über'],
        [1_024, 'tail constructor'],
      ]);
      await old.table('searchShards').bulkAdd(v4Shards);
    });
    const db = new AppDb(name);
    await db.open();
    const shards = await db.searchShards.toArray();
    expect(shards.map((row) => [row.bucket, row.shard, Object.fromEntries(row.terms)])).toEqual([
      [0, 't', { t: [1], tail: [1, 2], tab: [2], the: [1] }],
      [0, 'u', { uber: [3] }],
      [1, 'c', { constructor: [1_024] }],
      [1, 't', { tail: [1_024] }],
    ]);
    const found = searchHits(db);
    expect(await found('tail')).toEqual([1_024, 2, 1]);
    expect(await found('t')).toEqual([1_024, 2, 1]);
    expect(await found('the tail')).toEqual([1]);
    expect(await found('constructor')).toEqual([1_024]);
    expect(await found('Über')).toEqual([3]);
    db.close();
  });

  it('orders messages of a session by their auto-increment id', async () => {
    const db = new AppDb(uniqueDbName('order'));
    const live = { active: 1, compacted: 0 } as const;
    await db.messages.bulkAdd([
      { sessionId: 'a', message: { role: 'user', content: 'first' }, createdAt: 30, ...live },
      { sessionId: 'b', message: { role: 'user', content: 'other' }, createdAt: 10, ...live },
      { sessionId: 'a', message: { role: 'assistant', content: 'second' }, createdAt: 5, ...live },
    ]);
    const rows = expandMessageRows(
      await db.messages.where('[sessionId+id]').between(['a', 0], ['a', Infinity]).toArray(),
    );
    expect(rows.map((row) => row.message.content)).toEqual(['first', 'second']);
    db.close();
  });
});
