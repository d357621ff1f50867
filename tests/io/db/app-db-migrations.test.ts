import { describe, expect, it } from 'vitest';
import { AppDb } from '#io/db/app-db.ts';
import { seedDatabaseAtVersion, uniqueDbName } from '#tests/helpers/open-db-at-version.ts';

/** The schemas of past releases, oldest first. Append one entry whenever AppDb gains a version. */
const RELEASED_SCHEMAS = [
  {
    sessions: 'id, startedAt, parentSessionId',
    messages: '++id, sessionId, [sessionId+id]',
    settings: 'key',
  },
];

describe('AppDb migrations', () => {
  it('declares one version per released schema', async () => {
    const db = new AppDb(uniqueDbName('versions'));
    await db.open();
    expect(db.verno).toBe(RELEASED_SCHEMAS.length);
    db.close();
  });

  it('opens a database written by every earlier release without losing rows', async () => {
    for (let version = 1; version <= RELEASED_SCHEMAS.length; version++) {
      const name = uniqueDbName(`from-v${version}`);
      await seedDatabaseAtVersion(name, RELEASED_SCHEMAS.slice(0, version), async (old) => {
        await old.table('sessions').add({ id: 's1', title: 'Old', startedAt: 1, parentSessionId: null });
        await old.table('messages').bulkAdd([
          { sessionId: 's1', message: { role: 'user', content: 'hi' }, createdAt: 1 },
          { sessionId: 's1', message: { role: 'assistant', content: 'hello' }, createdAt: 2 },
        ]);
        await old.table('settings').put({ key: 'estimator', value: 'cl100k_base', updatedAt: 1 });
      });
      const db = new AppDb(name);
      const messages = await db.messages
        .where('[sessionId+id]')
        .between(['s1', 0], ['s1', Infinity])
        .toArray();
      expect(messages.map((row) => row.message.content)).toEqual(['hi', 'hello']);
      expect((await db.sessions.get('s1'))?.title).toBe('Old');
      expect((await db.settings.get('estimator'))?.value).toBe('cl100k_base');
      db.close();
    }
  });

  it('orders messages of a session by their auto-increment id', async () => {
    const db = new AppDb(uniqueDbName('order'));
    await db.messages.bulkAdd([
      { sessionId: 'a', message: { role: 'user', content: 'first' }, createdAt: 30 },
      { sessionId: 'b', message: { role: 'user', content: 'other' }, createdAt: 10 },
      { sessionId: 'a', message: { role: 'assistant', content: 'second' }, createdAt: 5 },
    ]);
    const rows = await db.messages.where('[sessionId+id]').between(['a', 0], ['a', Infinity]).toArray();
    expect(rows.map((row) => row.message.content)).toEqual(['first', 'second']);
    db.close();
  });
});
