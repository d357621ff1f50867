import type { AppDb } from './app-db.ts';
import { defaultLockManager, type LockManagerLike } from './compaction-lock.ts';
import { sessionMessageIds } from './message-groups.ts';
import { deleteMessagesInBatches, IMPORT_LOCK_PREFIX } from './store-session-in-batches.ts';

/**
 * Deletes the messages (and their search postings) of sessions that have no session row: what
 * an import interrupted by a closed tab or a crash left. An import still running, in this tab or
 * another, holds its lock and is skipped. Returns how many messages were removed.
 */
export async function deleteOrphanedMessages(
  db: AppDb,
  locks: LockManagerLike = defaultLockManager(),
): Promise<number> {
  const sessionIds = (await db.messages.orderBy('sessionId').uniqueKeys()).filter(
    (key): key is string => typeof key === 'string',
  );
  const rows = await db.sessions.bulkGet(sessionIds);
  const orphans = sessionIds.filter((_, index) => rows[index] === undefined);
  let removed = 0;
  for (const sessionId of orphans) {
    removed += await locks.request(
      `${IMPORT_LOCK_PREFIX}${sessionId}`,
      { ifAvailable: true },
      async (lock) => {
        if (lock === null) return 0;
        // Read again under the lock: the import may have committed its session row meanwhile.
        if ((await db.sessions.get(sessionId)) !== undefined) return 0;
        const ids = await sessionMessageIds(db, sessionId);
        await deleteMessagesInBatches(db, ids);
        return ids.length;
      },
    );
  }
  return removed;
}
