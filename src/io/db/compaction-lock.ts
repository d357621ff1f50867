import { err, ok, type Result } from '../../core/shared/result.ts';
import { InMemoryLockManager } from './in-memory-lock-manager.ts';

/**
 * The part of the Web Locks API (`navigator.locks`) the compaction lock needs; Node tests and
 * browsers without it get an `InMemoryLockManager`.
 */
export interface LockManagerLike {
  request<T>(
    name: string,
    options: { ifAvailable?: boolean },
    callback: (lock: { readonly name: string } | null) => Promise<T>,
  ): Promise<T>;
}

/** Hermes' `compression_locks` row (hermes-reference §6 step 5), as a Web Lock. */
export interface CompactionInProgressError {
  readonly type: 'CompactionInProgress';
  readonly sessionId: string;
  readonly message: string;
}

export const COMPACTION_LOCK_PREFIX = 'context-lab:compact:';

export const COMPACTION_IN_PROGRESS_MESSAGE =
  'Skipping concurrent compression — another path is already compressing this session. Will retry after it finishes.';

/**
 * Runs `compact` while holding the session's compaction lock, or returns `CompactionInProgress`
 * at once when another tab (or another path in this tab) holds it. Web Locks are shared by
 * every tab of the origin and released when the holder's tab closes or crashes, so unlike
 * Hermes' row there is no TTL or lease to refresh.
 *
 * The lock only stops the expensive part (the summary call) from running twice. The database
 * stays safe without it: `SessionRepository.rotateForCompression` re-checks inside its write
 * transaction that the session is still live, so a compaction that started from a stale view
 * (the session was rotated meanwhile under a different id's lock) is refused there.
 */
export async function withCompactionLock<T>(
  sessionId: string,
  compact: () => Promise<T>,
  locks: LockManagerLike = defaultLockManager(),
): Promise<Result<T, CompactionInProgressError>> {
  return locks.request(`${COMPACTION_LOCK_PREFIX}${sessionId}`, { ifAvailable: true }, async (lock) => {
    if (lock === null)
      return err({ type: 'CompactionInProgress', sessionId, message: COMPACTION_IN_PROGRESS_MESSAGE });
    return ok(await compact());
  });
}

let fallbackLockManager: InMemoryLockManager | null = null;

/**
 * `navigator.locks` where the browser has it (all current browsers, secure contexts only —
 * localhost counts). Otherwise one lock manager for this tab, which still keeps two paths of
 * one tab apart; other tabs are then protected by the transaction re-check alone.
 */
export function defaultLockManager(): LockManagerLike {
  // Typed as always present, but absent in Node and in browsers without Web Locks.
  const locks: LockManagerLike | undefined = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (locks !== undefined) return locks;
  fallbackLockManager ??= new InMemoryLockManager();
  return fallbackLockManager;
}
