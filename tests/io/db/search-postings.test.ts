import { describe, expect, it } from 'vitest';
import { AppDb } from '#io/db/app-db.ts';
import { createSeededRandom } from '#core/demo/seeded-random.ts';
import {
  addSearchPostings,
  postingRowsOf,
  removeSearchPostings,
  type MessageTerms,
} from '#io/db/search-postings.ts';
import { searchShardOf, type SearchShardRow } from '#io/db/search-shard-row.ts';
import { searchBucketOf } from '#io/db/search-term-row.ts';
import { uniqueDbName } from '#tests/helpers/open-db-at-version.ts';

/** Every shard as [bucket, shard, {term: ids}], in key order. */
async function shardsOf(db: AppDb): Promise<Array<[number, string, Record<string, number[]>]>> {
  return (await db.searchShards.toArray()).map((row) => [
    row.bucket,
    row.shard,
    Object.fromEntries(row.terms),
  ]);
}

/** The rows as sorted plain data: [bucket, shard, [term, ids][]] in key order. */
function plainRows(rows: readonly SearchShardRow[]): Array<[number, string, Array<[string, number[]]>]> {
  return rows
    .map((row): [number, string, Array<[string, number[]]>] => [
      row.bucket,
      row.shard,
      [...row.terms].sort(([first], [second]) => (first < second ? -1 : 1)),
    ])
    .sort(([bucketA, shardA], [bucketB, shardB]) => bucketA - bucketB || (shardA < shardB ? -1 : 1));
}

/** The rows by their definition: one per bucket and first code point, ids ascending and distinct. */
function referenceRows(entries: readonly MessageTerms[]): SearchShardRow[] {
  const rows = new Map<string, SearchShardRow>();
  for (const { messageId, terms } of entries) {
    for (const term of terms) {
      const bucket = searchBucketOf(messageId);
      const shard = searchShardOf(term);
      const key = JSON.stringify([bucket, shard]);
      const row = rows.get(key) ?? { bucket, shard, terms: new Map<string, number[]>() };
      rows.set(key, row);
      row.terms.set(
        term,
        [...new Set([...(row.terms.get(term) ?? []), messageId])].sort((a, b) => a - b),
      );
    }
  }
  return [...rows.values()];
}

describe('search postings in shards', () => {
  it('builds the rows its definition gives, for random entries (seeded)', () => {
    // Terms starting with ASCII, other BMP letters, a surrogate pair (its own shard) or a lone
    // surrogate; ids in order, out of order, repeated, across buckets.
    const starts = ['a', 'ab', 'b', 'é', '東', '\u{1F680}', '\u{1F681}', '\uD83D', '\uDE80', 'z9'];
    for (let seed = 1; seed <= 100; seed++) {
      const random = createSeededRandom(seed);
      const entries: MessageTerms[] = [];
      let id = random.integer(0, 5_000);
      for (let count = random.integer(0, 60); count > 0; count--) {
        id = random.chance(0.8) ? id + random.integer(0, 700) : random.integer(0, 5_000);
        const terms = Array.from(
          { length: random.integer(0, 8) },
          () => random.pick(starts) + random.pick(['', 'x', 'y']),
        );
        entries.push({ messageId: id, terms });
      }
      expect(plainRows(postingRowsOf(entries)), `seed ${seed}`).toEqual(plainRows(referenceRows(entries)));
    }
  });

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
