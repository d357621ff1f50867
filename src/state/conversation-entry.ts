import type { Preset } from '../core/presets/preset.ts';
import { groupConversations } from '../core/sessions/group-conversations.ts';
import { sessionRowToRecord } from '../io/db/row-mappers.ts';
import type { SessionRow } from '../io/db/session-row.ts';

// The UI may not import io (layer rule): it gets the stored session's shape from here.
export type { SessionRow };

/** One conversation of the session list: a continuation chain shown as one entry. */
export interface ConversationEntry {
  /** The root session's id. */
  id: string;
  /** The tip's title, else the root's; null when neither has one. */
  title: string | null;
  root: SessionRow;
  /** The live end of the chain: where the conversation resumes. */
  tip: SessionRow;
  /** Root → tip: segments `#1`, `#2`, … */
  segments: SessionRow[];
  /** Continuations off the chain (a stale sibling, say). */
  side: SessionRow[];
  /** Messages stored over every session of the conversation. */
  storedMessages: number;
  /** Compactions so far: the tip carries the chain's count, in-place ones included. */
  compressionCount: number;
  /** Σ of the sessions' recorded costs, USD. */
  costUsd: number;
  apiCallCount: number;
  lastActivity: number;
}

/** Groups stored sessions into conversations (see `groupConversations`), newest activity first. */
export function toConversationEntries(rows: readonly SessionRow[], preset: Preset): ConversationEntry[] {
  const byId = new Map(rows.map((row) => [row.id, row]));
  const rowsOf = (ids: readonly string[]): SessionRow[] => ids.flatMap((id) => byId.get(id) ?? []);
  return groupConversations(rows.map(sessionRowToRecord), preset).flatMap((group) => {
    const segments = rowsOf(group.chainIds);
    const root = segments[0];
    const tip = segments[segments.length - 1];
    if (root === undefined || tip === undefined) return [];
    const side = rowsOf(group.sideIds);
    const members = [...segments, ...side];
    return [
      {
        id: root.id,
        title: tip.title ?? root.title,
        root,
        tip,
        segments,
        side,
        storedMessages: members.reduce((sum, row) => sum + row.messageCount, 0),
        compressionCount: Math.max(...segments.map((row) => row.compressionCount), segments.length - 1),
        costUsd: members.reduce((sum, row) => sum + row.estimatedCostUsd, 0),
        apiCallCount: members.reduce((sum, row) => sum + row.apiCallCount, 0),
        lastActivity: Math.max(...members.map((row) => row.lastMessageAt ?? row.startedAt)),
      },
    ];
  });
}
