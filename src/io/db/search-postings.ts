import Dexie, { type Table } from 'dexie';
import { SEARCH_SHARD_PREFIX_CODE_POINTS, searchShardOf, type SearchShardRow } from './search-shard-row.ts';
import { searchBucketOf } from './search-term-row.ts';

export type SearchShardTable = Table<SearchShardRow, [number, string]>;

/** The distinct search terms of one stored message. */
export interface MessageTerms {
  messageId: number;
  terms: readonly string[];
}

/**
 * Adds messages to the posting lists. Call inside a read-write transaction over the table:
 * each shard row is read, extended and written back, and IndexedDB runs read-write
 * transactions on one store one after another, so two tabs appending at once cannot lose each
 * other's ids.
 *
 * `freshBuckets`: buckets the caller knows hold no posting row yet (every message with an id in
 * them is among `entries`, checked in the same transaction); their rows are written without
 * being read first, which halves the cost of indexing a large import.
 */
export async function addSearchPostings(
  table: SearchShardTable,
  entries: readonly MessageTerms[],
  freshBuckets: ReadonlySet<number> = NO_BUCKETS,
): Promise<void> {
  const rows = postingRowsOf(entries);
  if (rows.length === 0) return;
  const merged = rows.filter((row) => !freshBuckets.has(row.bucket));
  const existing = await table.bulkGet(merged.map((row): [number, string] => [row.bucket, row.shard]));
  merged.forEach((row, index) => {
    const stored = existing[index];
    if (stored === undefined) return;
    for (const [term, storedIds] of stored.terms) {
      const added = row.terms.get(term);
      row.terms.set(term, added === undefined ? storedIds : mergeIds(storedIds, added));
    }
  });
  await table.bulkPut(rows);
}

/**
 * The shard rows `entries` add to, each listing its terms' message ids in ascending order.
 *
 * Run once per posting (3.2 million for the 100 MiB bench import), so a posting costs one
 * lookup of its term in its bucket's table and makes no string: entries of one bucket usually
 * come together (ids ascend), so the table is fetched once per run of them, and terms are sorted
 * into shards once each, at the end, by their first UTF-16 unit (a term's shard unless that unit
 * is a high surrogate, whose pair `searchShardOf` keeps). Keyed per posting by a
 * `${bucket}\u0000${shard}` string as it was, the bench import's postings took three times as
 * long (0.62–0.73 s against 0.21–0.27 s in Node).
 */
export function postingRowsOf(entries: readonly MessageTerms[]): SearchShardRow[] {
  const buckets = new Map<number, Map<string, number[]>>();
  let bucket = Number.NaN;
  let postings = new Map<string, number[]>();
  for (const { messageId, terms } of entries) {
    const entryBucket = searchBucketOf(messageId);
    if (entryBucket !== bucket) {
      bucket = entryBucket;
      postings = buckets.get(bucket) ?? new Map<string, number[]>();
      buckets.set(bucket, postings);
    }
    for (const term of terms) {
      const ids = postings.get(term);
      if (ids) ids.push(messageId);
      else postings.set(term, [messageId]);
    }
  }
  const rows: SearchShardRow[] = [];
  for (const [bucket, postings] of buckets) {
    const shards = new Map<number | string, SearchShardRow>();
    for (const [term, ids] of postings) {
      const unit = term.charCodeAt(0);
      const key = ONE_CODE_POINT_SHARDS && (unit < 0xd800 || unit > 0xdbff) ? unit : searchShardOf(term);
      let row = shards.get(key);
      if (row === undefined) {
        row = { bucket, shard: searchShardOf(term), terms: new Map() };
        shards.set(key, row);
        rows.push(row);
      }
      // Entries usually come in id order, so the lists are usually sorted already.
      row.terms.set(term, isAscending(ids) ? ids : sortedUnique(ids));
    }
  }
  return rows;
}

/**
 * Removes messages from the posting lists. A removed message's terms are not known without
 * re-reading it, so every shard of the buckets its id falls in is visited (a key range, as
 * rows are keyed bucket first); deletion is rare and a bucket holds the terms of at most 1,024
 * messages.
 */
export async function removeSearchPostings(
  table: SearchShardTable,
  messageIds: readonly number[],
): Promise<void> {
  if (messageIds.length === 0) return;
  const removed = new Set(messageIds);
  const buckets = [...new Set(messageIds.map(searchBucketOf))];
  const rows = (
    await Promise.all(
      buckets.map((bucket) =>
        table.where('[bucket+shard]').between([bucket, Dexie.minKey], [bucket, Dexie.maxKey]).toArray(),
      ),
    )
  ).flat();
  const changed: SearchShardRow[] = [];
  const emptied: Array<[number, string]> = [];
  for (const row of rows) {
    let touched = false;
    const kept = new Map<string, number[]>();
    for (const [term, ids] of row.terms) {
      const left = ids.filter((id) => !removed.has(id));
      if (left.length !== ids.length) touched = true;
      if (left.length > 0) kept.set(term, left);
    }
    if (!touched) continue;
    if (kept.size === 0) emptied.push([row.bucket, row.shard]);
    else changed.push({ ...row, terms: kept });
  }
  await table.bulkDelete(emptied);
  await table.bulkPut(changed);
}

/** Two ascending id lists as one; new ids are usually all larger (auto-increment): a plain concat. */
function mergeIds(stored: readonly number[], added: readonly number[]): number[] {
  const merged = stored.concat(added);
  const last = stored[stored.length - 1] ?? -Infinity;
  return (added[0] ?? Infinity) > last ? merged : sortedUnique(merged);
}

function isAscending(ids: readonly number[]): boolean {
  for (let index = 1; index < ids.length; index++) if (ids[index]! <= ids[index - 1]!) return false;
  return true;
}

const sortedUnique = (ids: readonly number[]): number[] => [...new Set(ids)].sort(ascending);

const ascending = (first: number, second: number): number => first - second;

const NO_BUCKETS: ReadonlySet<number> = new Set();

/** Whether a term's first UTF-16 unit, unless a high surrogate, names its shard alone. */
const ONE_CODE_POINT_SHARDS = SEARCH_SHARD_PREFIX_CODE_POINTS === 1;
