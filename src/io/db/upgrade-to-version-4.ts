import Dexie, { type Transaction } from 'dexie';
import { searchShardOf, type SearchShardRow } from './search-shard-row.ts';
import type { SearchTermRow } from './search-term-row.ts';

/**
 * v3 → v4: the search index's term rows regrouped into shards (`search-shard-row.ts`), one
 * bucket at a time so a large index is never read whole. Ids and buckets do not change, so
 * every posting moves as it is. It runs inside Dexie's version change transaction, before
 * Dexie drops the old table: if anything fails the database stays at v3, untouched. It groups by
 * today's `searchShardOf`, so the v5 upgrade that follows finds its shards already regrouped.
 */
export async function upgradeToVersion4(transaction: Transaction): Promise<void> {
  const terms = transaction.table<SearchTermRow, [number, string]>('searchTerms');
  const shards = transaction.table<SearchShardRow, [number, string]>('searchShards');
  const newestKey = await terms.orderBy(':id').lastKey();
  const newestBucket: unknown = Array.isArray(newestKey) ? newestKey[0] : undefined;
  if (typeof newestBucket !== 'number') return;
  for (let bucket = 0; bucket <= newestBucket; bucket++) {
    const rows = await terms
      .where('[bucket+term]')
      .between([bucket, Dexie.minKey], [bucket, Dexie.maxKey])
      .toArray();
    const byShard = new Map<string, SearchShardRow>();
    for (const row of rows) {
      const shard = searchShardOf(row.term);
      let grouped = byShard.get(shard);
      if (grouped === undefined) {
        grouped = { bucket, shard, terms: new Map() };
        byShard.set(shard, grouped);
      }
      grouped.terms.set(row.term, row.messageIds);
    }
    await shards.bulkAdd([...byShard.values()]);
  }
}
