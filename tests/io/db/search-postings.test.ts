import { describe, expect, it } from 'vitest';
import { AppDb } from '#io/db/app-db.ts';
import { addSearchPostings, removeSearchPostings } from '#io/db/search-postings.ts';
import { uniqueDbName } from '#tests/helpers/open-db-at-version.ts';

/** Every shard as [bucket, shard, {term: ids}], in key order. */
async function shardsOf(db: AppDb): Promise<Array<[number, string, Record<string, number[]>]>> {
  return (await db.searchShards.toArray()).map((row) => [
    row.bucket,
    row.shard,
    Object.fromEntries(row.terms),
  ]);
}

describe('search postings in shards', () => {
  it('puts the terms sharing their first character in one row per bucket', async () => {
    const db = new AppDb(uniqueDbName('postings-group'));
    await addSearchPostings(db.searchShards, [
      { messageId: 1, terms: ['tail', 'tab', 'cut', 'the'] },
      { messageId: 2, terms: ['tail'] },
      { messageId: 1_025, terms: ['tail'] },
    ]);
    expect(await shardsOf(db)).toEqual([
      [0, 'c', { cut: [1] }],
      [0, 't', { tail: [1, 2], tab: [1], the: [1] }],
      [1, 't', { tail: [1_025] }],
    ]);
    db.close();
  });

  it('merges into a stored shard: its other terms stay, ids stay ascending and distinct', async () => {
    const db = new AppDb(uniqueDbName('postings-merge'));
    await addSearchPostings(db.searchShards, [{ messageId: 5, terms: ['tail', 'tab'] }]);
    await addSearchPostings(db.searchShards, [
      { messageId: 9, terms: ['tail', 'table'] },
      // An id below the stored ones (another tab's append, say) and one already listed.
      { messageId: 3, terms: ['tail'] },
      { messageId: 5, terms: ['tail'] },
    ]);
    expect(await shardsOf(db)).toEqual([[0, 't', { tail: [3, 5, 9], table: [9], tab: [5] }]]);
    db.close();
  });

  it('writes a fresh bucket without reading it, and a stored bucket only by merging', async () => {
    const db = new AppDb(uniqueDbName('postings-fresh'));
    await addSearchPostings(db.searchShards, [{ messageId: 1, terms: ['tail'] }]);
    await addSearchPostings(
      db.searchShards,
      [
        { messageId: 2, terms: ['tab'] },
        { messageId: 1_024, terms: ['tab'] },
      ],
      new Set([1]),
    );
    expect(await shardsOf(db)).toEqual([
      [0, 't', { tab: [2], tail: [1] }],
      [1, 't', { tab: [1_024] }],
    ]);
    db.close();
  });

  it('removes ids, keeps the shard while any term has one, and deletes it once none has', async () => {
    const db = new AppDb(uniqueDbName('postings-remove'));
    await addSearchPostings(db.searchShards, [
      { messageId: 1, terms: ['tail', 'tab'] },
      { messageId: 2, terms: ['tail', 'cut'] },
    ]);
    await removeSearchPostings(db.searchShards, [1]);
    expect(await shardsOf(db)).toEqual([
      [0, 'c', { cut: [2] }],
      [0, 't', { tail: [2] }],
    ]);
    await removeSearchPostings(db.searchShards, [2]);
    expect(await shardsOf(db)).toEqual([]);
    db.close();
  });
});
