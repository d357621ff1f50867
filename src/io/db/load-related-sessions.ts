import { MAXIMUM_CHAIN_STEPS } from '../../core/sessions/get-compression-tip.ts';
import { MAXIMUM_RESUME_DESCENT_STEPS } from '../../core/sessions/resolve-resume-session-id.ts';
import type { AppDb } from './app-db.ts';
import type { SessionRow } from './session-row.ts';

/**
 * The sessions the continuation-chain functions can reach from `id` — its ancestors (the
 * lineage walk) and its descendants down to the depth of the tip walk plus the resume descent —
 * rather than every session in the store. Read in one transaction, so another tab's rotation
 * is seen whole or not at all. Empty when `id` is unknown.
 */
export async function loadRelatedSessions(db: AppDb, id: string): Promise<SessionRow[]> {
  const { sessions } = db;
  return db.transaction('r', sessions, async () => {
    const start = await sessions.get(id);
    if (start === undefined) return [];
    const byId = new Map<string, SessionRow>([[id, start]]);
    let current: SessionRow | undefined = start;
    for (let step = 0; step < MAXIMUM_CHAIN_STEPS && current?.parentSessionId; step++) {
      if (byId.has(current.parentSessionId)) break;
      current = await sessions.get(current.parentSessionId);
      if (current !== undefined) byId.set(current.id, current);
    }
    let frontier = [id];
    const maximumDepth = MAXIMUM_CHAIN_STEPS + MAXIMUM_RESUME_DESCENT_STEPS;
    for (let depth = 0; depth < maximumDepth && frontier.length > 0; depth++) {
      const children = await sessions.where('parentSessionId').anyOf(frontier).toArray();
      frontier = [];
      for (const child of children) {
        if (byId.has(child.id)) continue;
        byId.set(child.id, child);
        frontier.push(child.id);
      }
    }
    return [...byId.values()];
  });
}
