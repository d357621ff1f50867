import type { SessionRow } from '../../state/conversation-entry.ts';

/**
 * How a session ended, in words: live, compacted into a continuation, a continuation whose
 * compaction was undone (its parent is live again; redo brings it back), or Hermes' reason.
 */
export function describeEnd(session: Pick<SessionRow, 'endedAt' | 'endReason' | 'metadata'>): string {
  if (session.endedAt === null && session.endReason === null) return 'live';
  if (session.endReason === 'compression') return 'compacted';
  if (typeof session.metadata?._compaction_undone === 'number') return 'compaction undone (redo restores it)';
  return (session.endReason ?? 'ended').replace(/_/g, ' ');
}
