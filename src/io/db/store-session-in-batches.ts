import { err, ok, type Result } from '../../core/shared/result.ts';
import type { Message } from '../../core/transcript/message.ts';
import type { AppDb } from './app-db.ts';
import { defaultLockManager, type LockManagerLike } from './compaction-lock.ts';
import { addGroupedMessages, MESSAGE_GROUP_MAX } from './message-groups.ts';
import type { SearchIndex } from './search-index.ts';
import { addSearchPostings, removeSearchPostings, type MessageTerms } from './search-postings.ts';
import { SEARCH_BUCKET_SIZE_MESSAGES, searchBucketOf } from './search-term-row.ts';
import type { SessionRow } from './session-row.ts';
import type { StoreCancelledError } from './session-store-error.ts';
import { runPlainStorageWrite, type StorageFullError } from './storage-full-error.ts';

/** Messages written per transaction: small enough that one commit never holds the database long. */
export const IMPORT_BATCH_MESSAGES = 400;

/** An import in progress holds this Web Lock (plus its session id); the orphan sweep skips it. */
export const IMPORT_LOCK_PREFIX = 'context-lab:import:';

/**
 * How long a batch's transaction spends finding the next batch's search terms while its messages
 * are written: about what the database takes to write them, so neither waits long on the other.
 */
const TERMS_WHILE_WRITING_MS = 12;

/** The steps inside one batch's transaction, in order; `onBatchStep` is called after each. */
export const IMPORT_BATCH_STEPS = ['insert-messages', 'index-terms'] as const;
export type ImportBatchStep = (typeof IMPORT_BATCH_STEPS)[number];

export interface StoreInBatchesOptions {
  /** Messages per write transaction (default `IMPORT_BATCH_MESSAGES`). */
  batchSize?: number;
  /** Aborting stops at the next batch and removes what was written. */
  signal?: AbortSignal;
  /**
   * How many messages are written so far (not yet visible: the session row comes last). Awaited
   * between batches, so what it reads sees the store as that batch left it.
   */
  onProgress?: (stored: number) => void | Promise<void>;
  /**
   * Test-only fault injection: called inside each batch's transaction after each step, with the
   * batch's number from 0. Throwing aborts that transaction as a crash or a closed tab would.
   */
  onBatchStep?: (step: ImportBatchStep, batch: number) => void;
  locks?: LockManagerLike;
  /** Indices of the messages the user pinned: their rows are stored pinned. */
  pinned?: readonly number[];
}

export interface StoreInBatchesContext {
  db: AppDb;
  searchIndex: SearchIndex;
  /** A fresh session id, unused by any session row or message. */
  mintSessionId: (now: number) => Promise<string>;
  now: () => number;
}

export type StoreInBatchesError = StorageFullError | StoreCancelledError;

/**
 * Stores a large transcript as a new session in many small transactions, so no commit holds
 * the database (or a page waiting on it) for seconds, and progress can be reported between
 * them. Nothing is visible until the end: messages are written first under the new session's
 * id, and the session row that makes them a session — listed, loaded, searched (search skips
 * messages without a session) — is written last, in the final transaction. A cancelled or
 * failed import removes every row it wrote before it returns; one interrupted by a closed tab
 * leaves rows without a session, which `deleteOrphanedMessages` removes later (the import's
 * Web Lock tells an orphan from an import still running in another tab).
 *
 * Search postings are written per bucket of message ids once no later message of this import
 * can fall into it (ids only grow), so each posting row is written once, not once per batch.
 */
export async function storeSessionInBatches(
  context: StoreInBatchesContext,
  session: (id: string, now: number) => SessionRow,
  messages: readonly Message[],
  options: StoreInBatchesOptions = {},
): Promise<Result<SessionRow, StoreInBatchesError>> {
  const { db, searchIndex } = context;
  const batchSize = Math.max(1, options.batchSize ?? IMPORT_BATCH_MESSAGES);
  const now = context.now();
  const sessionId = await context.mintSessionId(now);
  const locks = options.locks ?? defaultLockManager();
  const pinned = new Set(options.pinned ?? []);
  return locks.request(`${IMPORT_LOCK_PREFIX}${sessionId}`, {}, async () => {
    const ids: number[] = [];
    /** The keys of the rows this import wrote (a group's is its last id). */
    const ourRowKeys = new Set<number>();
    let pending: MessageTerms[] = [];
    const cancelled = (): boolean => options.signal?.aborted === true;
    const batches = Math.ceil(messages.length / batchSize);
    const sliceOf = (batch: number): readonly Message[] =>
      messages.slice(batch * batchSize, (batch + 1) * batchSize);
    try {
      // The next batch's search terms are found while this one's rows are written: the database
      // works on its own thread. Found in slices between this transaction's requests instead,
      // they delayed the replies the transaction waits for (the 100 MiB bench import stored in
      // 4.9 s that way, 3.9 s with its terms found beforehand), so most of them are found in one
      // bounded piece while the messages are written, and the rest before the next transaction.
      let upcoming = batches > 0 ? searchIndex.startPreparing(sliceOf(0)) : null;
      for (let batch = 0; batch < batches; batch++) {
        if (cancelled()) return await removeWritten(db, ids, cancelledError());
        const slice = sliceOf(batch);
        const prepared = await searchIndex.finishPreparing(upcoming!);
        if (cancelled()) return await removeWritten(db, ids, cancelledError());
        const next = batch + 1 < batches ? searchIndex.startPreparing(sliceOf(batch + 1)) : null;
        const written = await runPlainStorageWrite(() =>
          db.transaction('rw', [db.messages, db.searchShards], async () => {
            const added = await addGroupedMessages(db, sessionId, slice, now, {
              isPinned: (offset) => pinned.has(batch * batchSize + offset),
              whileWriting: () => next?.advance(TERMS_WHILE_WRITING_MS),
            });
            const batchIds = added.ids;
            for (const key of added.rowKeys) ourRowKeys.add(key);
            options.onBatchStep?.('insert-messages', batch);
            const entries = [
              ...pending,
              ...batchIds.map((messageId, index) => ({ messageId, terms: prepared[index] ?? [] })),
            ];
            const openBucket = searchBucketOf(batchIds[batchIds.length - 1] ?? 0);
            const complete = entries.filter((entry) => searchBucketOf(entry.messageId) < openBucket);
            await addSearchPostings(db.searchShards, complete, await bucketsOnlyOf(db, complete, ourRowKeys));
            options.onBatchStep?.('index-terms', batch);
            return {
              batchIds,
              open: entries.filter((entry) => searchBucketOf(entry.messageId) >= openBucket),
            };
          }),
        );
        upcoming = next;
        if (!written.ok) return await removeWritten(db, ids, written.error);
        ids.push(...written.value.batchIds);
        pending = written.value.open;
        await options.onProgress?.(ids.length);
      }
      if (cancelled()) return await removeWritten(db, ids, cancelledError());
      const row = session(sessionId, now);
      const committed = await runPlainStorageWrite(() =>
        db.transaction('rw', [db.sessions, db.messages, db.searchShards], async () => {
          await addSearchPostings(db.searchShards, pending, await bucketsOnlyOf(db, pending, ourRowKeys));
          await db.sessions.add(row);
        }),
      );
      if (!committed.ok) return await removeWritten(db, ids, committed.error);
      return ok(row);
    } catch (error) {
      // A bug or a broken database: nothing half-stored stays behind, and the caller hears why.
      await deleteMessagesInBatches(db, ids).catch(() => undefined);
      throw error;
    }
  });
}

/**
 * The buckets of `entries` that hold no other message than this import's: no posting row can
 * exist for them yet (a row lists only ids of existing messages, and ids are never reused), so
 * their rows need not be read before they are written. A row holding a message of the bucket is
 * keyed at most `MESSAGE_GROUP_MAX - 1` past the bucket's end (a group's key is its last id),
 * so the bucket is ours alone when every key in that span is one this import wrote. Call inside
 * a transaction over messages, so a message another tab appends meanwhile cannot slip in between.
 */
async function bucketsOnlyOf(
  db: AppDb,
  entries: readonly MessageTerms[],
  ourRowKeys: ReadonlySet<number>,
): Promise<Set<number>> {
  const buckets = new Set(entries.map(({ messageId }) => searchBucketOf(messageId)));
  const only = new Set<number>();
  for (const bucket of buckets) {
    const first = bucket * SEARCH_BUCKET_SIZE_MESSAGES;
    const keys = await db.messages
      .where(':id')
      .between(first, first + SEARCH_BUCKET_SIZE_MESSAGES + MESSAGE_GROUP_MAX - 1)
      .primaryKeys();
    if (keys.every((key) => ourRowKeys.has(key))) only.add(bucket);
  }
  return only;
}

async function removeWritten(
  db: AppDb,
  ids: readonly number[],
  error: StoreInBatchesError,
): Promise<Result<never, StoreInBatchesError>> {
  await deleteMessagesInBatches(db, ids);
  return err(error);
}

/** Deletes messages and their search postings, a few batches' worth per transaction, newest first. */
export async function deleteMessagesInBatches(db: AppDb, ids: readonly number[]): Promise<void> {
  for (let end = ids.length; end > 0; end -= IMPORT_BATCH_MESSAGES * 4) {
    const slice = ids.slice(Math.max(0, end - IMPORT_BATCH_MESSAGES * 4), end);
    await db.transaction('rw', [db.messages, db.searchShards], async () => {
      await removeSearchPostings(db.searchShards, slice);
      await db.messages.bulkDelete(slice);
    });
  }
}

const cancelledError = (): StoreCancelledError => ({
  type: 'StoreCancelled',
  message: 'The import was cancelled before it was stored; nothing was kept.',
});
