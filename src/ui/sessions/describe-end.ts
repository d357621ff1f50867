import type { SessionRow } from '../../state/conversation-entry.ts';

/**
 * How a session ended, in words: live, compacted into a continuation, a continuation whose
 * compaction was undone (its parent is live again; redo brings it back), or Hermes' reason.
 */
/** A continuation whose compaction was undone: its parent is live again, redo brings it back. */
export const isUndoneContinuationRow = (session: Pick<SessionRow, 'metadata'>): boolean =>
  typeof session.metadata?._compaction_undone === 'number';

export function describeEnd(session: Pick<SessionRow, 'endedAt' | 'endReason' | 'metadata'>): string {
  if (session.endedAt === null && session.endReason === null) return 'live';
  if (session.endReason === 'compression') return 'compacted';
  if (isUndoneContinuationRow(session)) return 'compaction undone (redo restores it)';
  return (session.endReason ?? 'ended').replace(/_/g, ' ');
}
