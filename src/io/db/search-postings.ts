import Dexie, { type Table } from 'dexie';
import { searchBucketOf, type SearchTermRow } from './search-term-row.ts';

export type SearchTermTable = Table<SearchTermRow, [number, string]>;

/** The distinct search terms of one stored message. */
export interface MessageTerms {
  messageId: number;
  terms: readonly string[];
}

/**
 * Adds messages to the posting lists. Call inside a read-write transaction over the table:
 * each row is read, extended and written back, and IndexedDB runs read-write transactions on
 * one store one after another, so two tabs appending at once cannot lose each other's ids.
 *
 * `freshBuckets`: buckets the caller knows hold no posting row yet (every message with an id in
 * them is among `entries`, checked in the same transaction); their rows are written without
 * being read first, which halves the cost of indexing a large import.
 */
export async function addSearchPostings(
  table: SearchTermTable,
  entries: readonly MessageTerms[],
  freshBuckets: ReadonlySet<number> = NO_BUCKETS,
): Promise<void> {
  const additions = new Map<string, SearchTermRow>();
  for (const { messageId, terms } of entries) {
    const bucket = searchBucketOf(messageId);
    for (const term of terms) {
      const key = `${term}\u0000${bucket}`;
      const row = additions.get(key);
      if (row) row.messageIds.push(messageId);
      else additions.set(key, { term, bucket, messageIds: [messageId] });
    }
  }
  if (additions.size === 0) return;
  const rows = [...additions.values()];
  const merged = rows.filter((row) => !freshBuckets.has(row.bucket));
  const existing = await table.bulkGet(merged.map((row): [number, string] => [row.bucket, row.term]));
  for (const row of rows) if (freshBuckets.has(row.bucket)) row.messageIds.sort(ascending);
  merged.forEach((row, index) => {
    const stored = existing[index];
    if (stored === undefined) {
      row.messageIds.sort(ascending);
      return;
    }
    const merged = stored.messageIds.concat(row.messageIds);
    // New ids are usually all larger (auto-increment), so the merge is usually already sorted.
    const last = stored.messageIds[stored.messageIds.length - 1] ?? -Infinity;
    row.messageIds = row.messageIds.every((id) => id > last) ? merged : [...new Set(merged)].sort(ascending);
  });
  await table.bulkPut(rows);
}

/**
 * Removes messages from the posting lists. A removed message's terms are not known without
 * re-reading it, so every row of the buckets its id falls in is visited (a key range, as rows
 * are keyed bucket first); deletion is rare and a bucket holds the terms of at most 1,024
 * messages.
 */
export async function removeSearchPostings(
  table: SearchTermTable,
  messageIds: readonly number[],
): Promise<void> {
  if (messageIds.length === 0) return;
  const removed = new Set(messageIds);
  const buckets = [...new Set(messageIds.map(searchBucketOf))];
  const rows = (
    await Promise.all(
      buckets.map((bucket) =>
        table.where('[bucket+term]').between([bucket, Dexie.minKey], [bucket, Dexie.maxKey]).toArray(),
      ),
    )
  ).flat();
  const changed: SearchTermRow[] = [];
  const emptied: Array<[number, string]> = [];
  for (const row of rows) {
    const kept = row.messageIds.filter((id) => !removed.has(id));
    if (kept.length === row.messageIds.length) continue;
    if (kept.length === 0) emptied.push([row.bucket, row.term]);
    else changed.push({ ...row, messageIds: kept });
  }
  await table.bulkDelete(emptied);
  await table.bulkPut(changed);
}

const ascending = (first: number, second: number): number => first - second;

const NO_BUCKETS: ReadonlySet<number> = new Set();
