import type { SessionRow } from '../../state/conversation-entry.ts';

/** How a session ended, in words: live, compacted into a continuation, or Hermes' reason. */
export function describeEnd(session: Pick<SessionRow, 'endedAt' | 'endReason'>): string {
  if (session.endedAt === null && session.endReason === null) return 'live';
  if (session.endReason === 'compression') return 'compacted';
  return (session.endReason ?? 'ended').replace(/_/g, ' ');
}
