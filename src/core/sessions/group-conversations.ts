import type { Preset } from '../presets/preset.ts';
import { getCompressionTip, MAXIMUM_CHAIN_STEPS } from './get-compression-tip.ts';
import {
  END_REASONS,
  isContinuationCandidate,
  isUndoneContinuation,
  type SessionRecord,
} from './session-record.ts';
import { sessionLineageRootToTip } from './session-lineage-root-to-tip.ts';

/** One conversation of the session list: a continuation chain and anything else hanging off it. */
export interface ConversationGroup {
  rootId: string;
  /** The live end of the chain (`get_compression_tip` from the root). */
  tipId: string;
  /** Root → tip: the segments `#1`, `#2`, … of the conversation. */
  chainIds: string[];
  /** Other continuations of a chain member (a stale sibling, say), oldest first. */
  sideIds: string[];
  /** Newest message or start of any member, for ordering the list. */
  lastActivity: number;
}

/**
 * Groups stored sessions into conversations for the session list (hermes-reference §11): a child
 * belongs to its parent's conversation when the parent ended with `compression` and the child is
 * a continuation (not a branch, delegate or tool session). A continuation whose compaction was
 * undone stays in its parent's conversation too, off the chain (a side member): it is where redo
 * brings the conversation back to, not a conversation of its own. Everything else starts its own
 * conversation, including a child whose parent was deleted. Newest activity first.
 */
export function groupConversations(sessions: readonly SessionRecord[], preset: Preset): ConversationGroup[] {
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const continues = (session: SessionRecord): SessionRecord | null => {
    const parent = session.parentSessionId === null ? undefined : byId.get(session.parentSessionId);
    if (parent === undefined) return null;
    if (isUndoneContinuation(session)) return parent;
    if (parent.endReason !== END_REASONS.compression) return null;
    return isContinuationCandidate(session) ? parent : null;
  };
  const rootOf = (session: SessionRecord): SessionRecord => {
    const path = [session];
    let current = session;
    for (let step = 0; step < MAXIMUM_CHAIN_STEPS; step++) {
      const parent = continues(current);
      if (parent === null) break;
      const seenAt = path.indexOf(parent);
      if (seenAt >= 0) {
        // A parent cycle (corrupt data) has no root: every member names the same one, the
        // smallest id, so the cycle stays one conversation instead of one per entry point.
        return path.slice(seenAt).reduce((first, second) => (second.id < first.id ? second : first));
      }
      path.push(parent);
      current = parent;
    }
    return current;
  };

  const membersByRoot = new Map<string, SessionRecord[]>();
  for (const session of sessions) {
    const root = rootOf(session);
    const members = membersByRoot.get(root.id);
    if (members === undefined) membersByRoot.set(root.id, [session]);
    else members.push(session);
  }

  const groups: ConversationGroup[] = [];
  for (const [rootId, members] of membersByRoot) {
    // The tip and the chain are found among the members only, so a branch that 2026-04's looser
    // tip walk would follow cannot pull another conversation's sessions into this one.
    const tipId = getCompressionTip(members, rootId, preset);
    const lineage = sessionLineageRootToTip(members, tipId);
    const chainIds = lineage[0] === rootId ? lineage : [rootId];
    const onChain = new Set(chainIds);
    const sideIds = members
      .filter((member) => !onChain.has(member.id))
      .sort((first, second) => first.startedAt - second.startedAt)
      .map((member) => member.id);
    const lastActivity = Math.max(...members.map((member) => member.lastMessageAt ?? member.startedAt));
    groups.push({ rootId, tipId: chainIds[chainIds.length - 1] ?? rootId, chainIds, sideIds, lastActivity });
  }
  return groups.sort((first, second) => second.lastActivity - first.lastActivity);
}
