import { MAXIMUM_CHAIN_STEPS } from './get-compression-tip.ts';
import type { SessionRecord } from './session-record.ts';

/**
 * The ancestry of a session, root first and ending with the session itself
 * (`_session_lineage_root_to_tip`, hermes-reference §11): follows `parentSessionId` up at most
 * 100 steps, stopping at a missing parent or a cycle.
 */
export function sessionLineageRootToTip(sessions: readonly SessionRecord[], id: string): string[] {
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const chain = [id];
  const visited = new Set(chain);
  let current = byId.get(id);
  for (let step = 0; step < MAXIMUM_CHAIN_STEPS && current; step++) {
    const parentId = current.parentSessionId;
    if (parentId === null || visited.has(parentId) || !byId.has(parentId)) break;
    chain.push(parentId);
    visited.add(parentId);
    current = byId.get(parentId);
  }
  return chain.reverse();
}
