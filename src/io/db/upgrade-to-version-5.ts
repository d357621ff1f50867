import Dexie, { type Transaction } from 'dexie';
import { searchShardOf, type SearchShardRow } from './search-shard-row.ts';

/**
 * v4 → v5: the search index's shards regrouped by their terms' first code point instead of their
 * first two (`search-shard-row.ts` says why), one bucket at a time so a large index is never read
 * whole. Ids and buckets do not change, so every posting moves as it is. It runs inside Dexie's
 * version change transaction: if anything fails the database stays at v4, untouched.
 */
export async function upgradeToVersion5(transaction: Transaction): Promise<void> {
  const shards = transaction.table<SearchShardRow, [number, string]>('searchShards');
  const newestKey = await shards.orderBy(':id').lastKey();
  const newestBucket: unknown = Array.isArray(newestKey) ? newestKey[0] : undefined;
  if (typeof newestBucket !== 'number') return;
  for (let bucket = 0; bucket <= newestBucket; bucket++) {
    const inBucket = shards.where('[bucket+shard]').between([bucket, Dexie.minKey], [bucket, Dexie.maxKey]);
    const rows = await inBucket.toArray();
    if (rows.length === 0) continue;
    const regrouped = new Map<string, SearchShardRow>();
    for (const row of rows) {
      for (const [term, ids] of row.terms) {
        const shard = searchShardOf(term);
        let grouped = regrouped.get(shard);
        if (grouped === undefined) {
          grouped = { bucket, shard, terms: new Map() };
          regrouped.set(shard, grouped);
        }
        // A term lives in exactly one v4 shard, so no two rows hold the same term.
        grouped.terms.set(term, ids);
      }
    }
    await inBucket.delete();
    await shards.bulkAdd([...regrouped.values()]);
  }
}
