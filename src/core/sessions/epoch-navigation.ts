/**
 * Undo and redo over a conversation's compaction epochs, as pure choices on the stored records.
 * The epochs that shaped the live session's history form a stack: undo takes the newest applied
 * one, redo the one undone last. Rotation moves the live session along (undoing a rotation makes
 * its parent live again), in place keeps it.
 */
import type { CompactionMode } from './compaction-mode.ts';
import type { EpochStatus } from './compaction-epoch.ts';

/** The fields the choice reads (stored rows and domain epochs both have them). */
export interface EpochLink {
  readonly id: number;
  readonly sessionId: string;
  readonly childSessionId: string | null;
  readonly mode: CompactionMode;
  readonly status: EpochStatus;
}

/** The session whose history an epoch produced: the same session in place, the child after a rotation. */
export const epochResultSessionId = (epoch: EpochLink): string =>
  epoch.mode === 'in-place' ? epoch.sessionId : (epoch.childSessionId ?? epoch.sessionId);

/**
 * The epoch Undo reverts when `liveSessionId` is the conversation's live session: the newest
 * applied epoch whose result is that session's history. Null when nothing can be undone.
 */
export function undoTarget<T extends EpochLink>(epochs: readonly T[], liveSessionId: string): T | null {
  let target: T | null = null;
  for (const epoch of epochs)
    if (
      epoch.status === 'applied' &&
      epochResultSessionId(epoch) === liveSessionId &&
      (target === null || epoch.id > target.id)
    )
      target = epoch;
  return target;
}

/**
 * The epoch Redo applies again: of the undone epochs made on the live session, the oldest. Undo
 * works down from the newest, so the oldest undone one is the one undone last.
 */
export function redoTarget<T extends EpochLink>(epochs: readonly T[], liveSessionId: string): T | null {
  let target: T | null = null;
  for (const epoch of epochs)
    if (
      epoch.status === 'undone' &&
      epoch.sessionId === liveSessionId &&
      (target === null || epoch.id < target.id)
    )
      target = epoch;
  return target;
}

/**
 * The undone epochs a new compaction on `liveSessionId` supersedes: every one Redo could reach
 * from there, and those undone on the continuations they created (they can only come back
 * through them).
 */
export function supersededBy<T extends EpochLink>(epochs: readonly T[], liveSessionId: string): T[] {
  const superseded: T[] = [];
  const sessions = [liveSessionId];
  const seen = new Set<number>();
  while (sessions.length > 0) {
    const sessionId = sessions.pop()!;
    for (const epoch of epochs) {
      if (epoch.status !== 'undone' || epoch.sessionId !== sessionId || seen.has(epoch.id)) continue;
      seen.add(epoch.id);
      superseded.push(epoch);
      if (epoch.mode === 'rotate' && epoch.childSessionId !== null) sessions.push(epoch.childSessionId);
    }
  }
  return superseded;
}
