/**
 * Undo and redo of one compaction epoch, row by row, inside the caller's read-write transaction
 * over sessions, messages, persisted outputs and compactions (ROUND2 §4). Nothing is deleted:
 *
 * - in place, undo makes the archived rows live again and hides the compacted ones (Hermes'
 *   undone flags, `active=0, compacted=0`); redo swaps them back. Turns stored after the
 *   compaction have later ids than both histories and stay live throughout;
 * - after a rotation, undo reopens the parent as the live tip and ends the child as an undone
 *   branch; turns the child received after the compaction move to the parent, so the
 *   conversation keeps them. Redo ends the parent again, reopens the child and moves the turns
 *   stored on the parent since then to the child.
 */
import { END_REASONS } from '../../core/sessions/session-record.ts';
import type { AppDb } from './app-db.ts';
import {
  liveRows,
  moveRows,
  rowIds,
  setFlags,
  undoneBranchMetadata,
  withHistoryChange,
  type EpochStep,
} from './compaction-epoch-writes.ts';
import type { CompactionRow } from './compaction-row.ts';
import { readMessageRows } from './message-groups.ts';
import type { SessionRow } from './session-row.ts';

export interface EpochTransition {
  /** The epoch after the change. */
  readonly epoch: CompactionRow;
  /** Where the conversation is live now. */
  readonly session: SessionRow;
}

/** Thrown inside the transaction when the stored rows contradict the epoch; rolls it back. */
export class EpochInconsistentError extends Error {
  override readonly name = 'EpochInconsistentError';
}

type Step = (name: EpochStep) => void;

/** Reverts `epoch`, which must be the live session's newest applied one. */
export async function undoEpoch(
  db: AppDb,
  epoch: CompactionRow,
  now: number,
  step: Step,
): Promise<EpochTransition> {
  if (epoch.mode === 'in-place') {
    const session = await requireSession(db, epoch.sessionId);
    await expectRows(db, epoch.replacedMessageIds, 'archived');
    await setFlags(db, epoch.replacedMessageIds, 1, 0);
    step('restore-rows');
    await setFlags(db, epoch.resultMessageIds, 0, 0);
    step('hide-rows');
    const live = await liveRows(db, session.id);
    const updated = withHistoryChange(session, {
      messageCount: live.length,
      compressorState: epoch.compressorStateBefore,
      compressionCount: epoch.compressorStateBefore?.compressionCount ?? 0,
      systemPrompt: epoch.systemPromptBefore,
    });
    await db.sessions.put(updated);
    step('update-sessions');
    return {
      epoch: await saveEpoch(db, { ...epoch, status: 'undone', changedAt: now }, step),
      session: updated,
    };
  }
  const parent = await requireSession(db, epoch.sessionId);
  const child = await requireSession(db, epoch.childSessionId!);
  const result = new Set(epoch.resultMessageIds);
  const later = (await liveRows(db, child.id)).filter((row) => !result.has(row.id!));
  await moveRows(db, later, child.id, parent.id);
  step('move-turns');
  const reopened = withHistoryChange(parent, {
    endedAt: null,
    endReason: null,
    messageCount: parent.messageCount + later.length,
    lastMessageAt: later.length > 0 ? now : parent.lastMessageAt,
    compressorState: epoch.compressorStateBefore ?? parent.compressorState,
  });
  const branched = withHistoryChange(child, {
    endedAt: now,
    endReason: END_REASONS.branched,
    metadata: undoneBranchMetadata(child.metadata, { parentId: parent.id, epochId: epoch.id! }),
    messageCount: child.messageCount - later.length,
  });
  await db.sessions.bulkPut([reopened, branched]);
  step('update-sessions');
  const undone = { ...epoch, status: 'undone' as const, changedAt: now, carriedMessageIds: rowIds(later) };
  return { epoch: await saveEpoch(db, undone, step), session: reopened };
}

/** Applies `epoch` again, which must be the live session's redo target. */
export async function redoEpoch(
  db: AppDb,
  epoch: CompactionRow,
  now: number,
  step: Step,
): Promise<EpochTransition> {
  if (epoch.mode === 'in-place') {
    const session = await requireSession(db, epoch.sessionId);
    await expectRows(db, epoch.resultMessageIds, 'hidden');
    await setFlags(db, epoch.replacedMessageIds, 0, 1);
    step('hide-rows');
    await setFlags(db, epoch.resultMessageIds, 1, 0);
    step('restore-rows');
    const live = await liveRows(db, session.id);
    const updated = withHistoryChange(session, {
      messageCount: live.length,
      compressorState: epoch.compressorStateAfter,
      compressionCount: epoch.compressorStateAfter.compressionCount,
      systemPrompt: epoch.systemPromptAfter,
    });
    await db.sessions.put(updated);
    step('update-sessions');
    return {
      epoch: await saveEpoch(db, { ...epoch, status: 'applied', changedAt: now }, step),
      session: updated,
    };
  }
  const parent = await requireSession(db, epoch.sessionId);
  const child = await requireSession(db, epoch.childSessionId!);
  const replaced = new Set(epoch.replacedMessageIds);
  const later = (await liveRows(db, parent.id)).filter((row) => !replaced.has(row.id!));
  await moveRows(db, later, parent.id, child.id);
  step('move-turns');
  const ended = withHistoryChange(parent, {
    // When it was compacted, not now: 2026-04's tip walk wants a child started at or after it.
    endedAt: epoch.createdAt,
    endReason: END_REASONS.compression,
    messageCount: parent.messageCount - later.length,
  });
  const reopened = withHistoryChange(child, {
    endedAt: null,
    endReason: null,
    metadata: undoneBranchMetadata(child.metadata, null),
    messageCount: child.messageCount + later.length,
    lastMessageAt: later.length > 0 ? now : child.lastMessageAt,
  });
  await db.sessions.bulkPut([ended, reopened]);
  step('update-sessions');
  const redone = { ...epoch, status: 'applied' as const, changedAt: now, carriedMessageIds: rowIds(later) };
  return { epoch: await saveEpoch(db, redone, step), session: reopened };
}

async function requireSession(db: AppDb, id: string): Promise<SessionRow> {
  const session = await db.sessions.get(id);
  if (session === undefined)
    throw new EpochInconsistentError(`Session ${id} of the compaction is no longer stored.`);
  return session;
}

/**
 * The rows the transition brings back must all still be stored, in the state the epoch left
 * them: a missing row would make the restored history silently incomplete.
 */
async function expectRows(db: AppDb, ids: readonly number[], state: 'archived' | 'hidden'): Promise<void> {
  const rows = await readMessageRows(db, ids);
  const wrong = rows.filter(
    (row) => row === undefined || row.active !== 0 || row.compacted !== (state === 'archived' ? 1 : 0),
  ).length;
  if (wrong > 0)
    throw new EpochInconsistentError(
      `${wrong} of the ${ids.length} messages this compaction would bring back are missing or already live.`,
    );
}

async function saveEpoch(db: AppDb, epoch: CompactionRow, step: Step): Promise<CompactionRow> {
  await db.compactions.put(epoch);
  step('record-epoch');
  return epoch;
}
