/**
 * The inverted index's row format of schema v2–v3, replaced in v4 by `SearchShardRow` (which
 * groups these rows by their term's first characters); kept for the upgrades that write and
 * read it. The bucket of a message id below is the same in both formats.
 *
 * One slice of the inverted index's posting list for `term`: the ids of the messages that
 * contain it, among message ids `bucket * SEARCH_BUCKET_SIZE_MESSAGES` up to the next bucket.
 *
 * Why posting lists and not one row per (term, message): 100k short messages make about a
 * million (term, message) pairs; inserting them took 196 s in fake-indexeddb and would take
 * tens of seconds in a browser, while buckets make one row per term per 1,024 messages.
 * Why buckets: appending a message rewrites the rows of its terms, so a row must stay small
 * even for a term as common as "the"; and a search reads the newest buckets first and stops
 * once it has enough hits. Rows are keyed `[bucket+term]`: one bucket's rows for a term, or
 * for every term with a prefix, are one key range.
 */
export interface SearchTermRow {
  /** Normalised by `core/search/search-terms.ts`. */
  term: string;
  bucket: number;
  /** Ascending. */
  messageIds: number[];
}

export const SEARCH_BUCKET_SIZE_MESSAGES = 1024;

export const searchBucketOf = (messageId: number): number =>
  Math.floor(messageId / SEARCH_BUCKET_SIZE_MESSAGES);
