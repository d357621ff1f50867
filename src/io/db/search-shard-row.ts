/**
 * One shard of one bucket of the inverted index (v4): for every term that starts with `shard`
 * and occurs in the messages of ids `bucket * SEARCH_BUCKET_SIZE_MESSAGES` up to the next
 * bucket, the ids of those messages.
 *
 * Why shards and not one row per term and bucket (v2–v3, `search-term-row.ts`): IndexedDB
 * pays per row written. A 100 MiB import (33,736 messages) made 112,544 term rows, and writing
 * them was half of its store time in Chromium. Grouped by their first two characters (v4) the
 * same postings were 14,373 rows, still 30% of the import's rows; by their first character (v5)
 * they are 1,188. Chromium's IndexedDB costs about 80 µs of its backend thread per row written
 * (one at a time, for the whole database) and as much again in the page's thread, plus about
 * 12 µs per KB, so 1,188 rows of ~9 KB cost a fifth of 14,373 rows of ~0.8 KB. A shard stays
 * small enough to rewrite when a chat message is appended (a bucket's few dozen shards share its
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

/** Terms are grouped by this many leading code points (v5; v4 grouped by two). */
export const SEARCH_SHARD_PREFIX_CODE_POINTS = 1;

/** The shard a term's postings live in: its first code point. */
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
 * (and any longer shard after it, which only a shard length above one would make). The caller
 * still keeps only the terms that start with `prefix`.
 */
export function searchShardRange(bucket: number, prefix: string): [[number, string], [number, string]] {
  const shard = searchShardOf(prefix);
  return [
    [bucket, shard],
    [bucket, `${shard}\uffff`],
  ];
}
