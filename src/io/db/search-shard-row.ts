/**
 * One shard of one bucket of the inverted index (v4): for every term that starts with `shard`
 * and occurs in the messages of ids `bucket * SEARCH_BUCKET_SIZE_MESSAGES` up to the next
 * bucket, the ids of those messages.
 *
 * Why shards and not one row per term and bucket (v2–v3, `search-term-row.ts`): IndexedDB
 * pays per row written. A 100 MiB import (33,736 messages) made 112,544 term rows, and writing
 * them was half of its store time in Chromium (about 30 µs a row, whatever the row holds);
 * grouped by their first two characters the same postings are 14,373 rows. A shard stays small
 * enough to rewrite when a chat message is appended (a bucket's few hundred shards share its
 * ~100,000 postings), and a search still reads one row per exact term and bucket. Rows are keyed
 * `[bucket+shard]`: one bucket's rows for a term, or for every term with a prefix, are one key
 * range (see `searchShardRange`).
 */
export interface SearchShardRow {
  bucket: number;
  /** The first `SEARCH_SHARD_PREFIX_CODE_POINTS` code points of each of its terms. */
  shard: string;
  /** Term (normalised by `core/search/search-terms.ts`) → message ids holding it, ascending. */
  terms: Map<string, number[]>;
}

/** Terms are grouped by this many leading code points (a shorter term is its own shard). */
export const SEARCH_SHARD_PREFIX_CODE_POINTS = 2;

/** The shard a term's postings live in: its first two code points. */
export function searchShardOf(term: string): string {
  let end = 0;
  for (let codePoints = 0; codePoints < SEARCH_SHARD_PREFIX_CODE_POINTS && end < term.length; codePoints++) {
    const code = term.charCodeAt(end);
    end += code >= 0xd800 && code <= 0xdbff && end + 1 < term.length ? 2 : 1;
  }
  return term.slice(0, end);
}

/**
 * The key range of a bucket's shards that can hold terms starting with `prefix`: its own shard
 * and, for a one-character prefix, every two-character shard after it. The caller still keeps
 * only the terms that start with `prefix`.
 */
export function searchShardRange(bucket: number, prefix: string): [[number, string], [number, string]] {
  const shard = searchShardOf(prefix);
  return [
    [bucket, shard],
    [bucket, `${shard}\uffff`],
  ];
}
