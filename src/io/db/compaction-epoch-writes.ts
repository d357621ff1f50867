/**
 * The row-level pieces of compaction epochs (in-place archiving, undo, redo), each meant to run
 * inside the caller's read-write transaction so an operation happens entirely or not at all.
 * `SessionRepository` composes them; they hold no state of their own.
 */
import { UNDONE_COMPACTION_KEY } from '../../core/sessions/session-record.ts';
import { messageText } from '../../core/transcript/message.ts';
import type { AppDb } from './app-db.ts';
import type { StoredCompactionRow } from './compaction-row.ts';
import { changeMessageRows, readSessionMessageRows } from './message-groups.ts';
import type { MessageFlag, MessageRow } from './message-row.ts';
import type { SessionRow } from './session-row.ts';
import { PERSISTED_OUTPUTS_LOCATION } from './indexed-db-tool-result-storage.ts';

/** The steps of the epoch operations, in order; `onEpochStep` is called after each one reached. */
export const IN_PLACE_STEPS = [
  'archive-rows',
  'insert-messages',
  'index-terms',
  'update-sessions',
  'record-epoch',
] as const;
export const UNDO_IN_PLACE_STEPS = ['restore-rows', 'hide-rows', 'update-sessions', 'record-epoch'] as const;
export const REDO_IN_PLACE_STEPS = ['hide-rows', 'restore-rows', 'update-sessions', 'record-epoch'] as const;
export const ROTATION_EPOCH_STEPS = ['move-turns', 'update-sessions', 'record-epoch'] as const;
export type EpochStep =
  | (typeof IN_PLACE_STEPS)[number]
  | (typeof UNDO_IN_PLACE_STEPS)[number]
  | (typeof ROTATION_EPOCH_STEPS)[number];

/**
 * Marks a continuation whose rotation was undone (in its metadata, Hermes' `model_config`):
 * `_branched_from` keeps it out of every continuation walk, as Hermes does for branches, and
 * this key says which epoch made it one, so appends to it are redirected to the live parent.
 */
export { UNDONE_COMPACTION_KEY };
export const BRANCHED_FROM_KEY = '_branched_from';

export const isUndoneBranch = (session: SessionRow): boolean =>
  session.metadata !== null && typeof session.metadata[UNDONE_COMPACTION_KEY] === 'number';

/** The live rows of a session in id order (the order key). */
export async function liveRows(db: AppDb, sessionId: string): Promise<MessageRow[]> {
  return (await readSessionMessageRows(db, sessionId)).filter((row) => row.active === 1);
}

export const rowIds = (rows: readonly MessageRow[]): number[] =>
  rows.flatMap((row) => (row.id === undefined ? [] : [row.id]));

/** Whether `live` is exactly `expected`, in order. */
export const sameIds = (live: readonly number[], expected: readonly number[]): boolean =>
  live.length === expected.length && live.every((id, index) => id === expected[index]);

/** Sets Hermes' flags on the given rows; returns how many rows were found. */
export async function setFlags(
  db: AppDb,
  ids: readonly number[],
  active: MessageFlag,
  compacted: MessageFlag,
): Promise<number> {
  return changeMessageRows(db, ids, (row) => {
    row.active = active;
    row.compacted = compacted;
  });
}

/**
 * Moves rows to another session of the same conversation, keeping their ids and so their
 * order, with the stored tool outputs they cite: a later deletion of the session they left
 * must not take those outputs away from them.
 */
export async function moveRows(
  db: AppDb,
  rows: readonly MessageRow[],
  fromSessionId: string,
  toSessionId: string,
): Promise<void> {
  if (rows.length === 0) return;
  await changeMessageRows(db, rowIds(rows), (row) => {
    row.sessionId = toSessionId;
  });
  const texts = rows.map((row) => messageText(row.message));
  await db.persistedOutputs
    .where('sessionId')
    .equals(fromSessionId)
    .filter((output) =>
      texts.some((text) => text.includes(`${PERSISTED_OUTPUTS_LOCATION}/${output.fileName}`)),
    )
    .modify({ sessionId: toSessionId });
}

/**
 * The epochs undo, redo and supersession can reach from `sessionId`: those made on it or that
 * created it, and, following rotations, those made on the continuations it led to.
 */
export async function epochsAround(db: AppDb, sessionId: string): Promise<StoredCompactionRow[]> {
  const byId = new Map<number, StoredCompactionRow>();
  for (const row of await db.compactions.where('childSessionId').equals(sessionId).toArray())
    byId.set(row.id!, row as StoredCompactionRow);
  const frontier = [sessionId];
  const seen = new Set<string>();
  while (frontier.length > 0) {
    const current = frontier.pop()!;
    if (seen.has(current)) continue;
    seen.add(current);
    for (const row of await db.compactions.where('sessionId').equals(current).toArray()) {
      byId.set(row.id!, row as StoredCompactionRow);
      if (row.childSessionId !== null) frontier.push(row.childSessionId);
    }
  }
  return [...byId.values()].sort((first, second) => first.id - second.id);
}

/** A session row after a change of its live history. */
export function withHistoryChange(session: SessionRow, changes: Partial<SessionRow>): SessionRow {
  return { ...session, ...changes, historyRevision: (session.historyRevision ?? 0) + 1 };
}

/** Metadata of a continuation that is (no longer) an undone branch. */
export function undoneBranchMetadata(
  metadata: Record<string, unknown> | null,
  mark: { parentId: string; epochId: number } | null,
): Record<string, unknown> | null {
  const { [BRANCHED_FROM_KEY]: _branched, [UNDONE_COMPACTION_KEY]: _undone, ...rest } = metadata ?? {};
  if (mark !== null)
    return { ...rest, [BRANCHED_FROM_KEY]: mark.parentId, [UNDONE_COMPACTION_KEY]: mark.epochId };
  return Object.keys(rest).length === 0 ? null : rest;
}
