import type { Preset } from '../presets/preset.ts';
import { getCompressionTip } from './get-compression-tip.ts';
import {
  childrenOf,
  hasMessages,
  isContinuationCandidate,
  latestStarted,
  type SessionRecord,
} from './session-record.ts';

/** Descendants searched for one that holds messages. */
export const MAXIMUM_RESUME_DESCENT_STEPS = 32;

/**
 * The session `--resume <id>` should open (`resolve_resume_session_id`, hermes-reference §11).
 * After a compression the messages live in the continuation, so an empty session redirects to
 * its first descendant (latest-started child each step) that has messages; with none, the id is
 * returned unchanged. 2026-07 first jumps to the compression tip — so resuming a parent that
 * kept its own rows still lands on the continuation — and ignores branch, delegate and tool
 * children while descending.
 */
export function resolveResumeSessionId(
  sessions: readonly SessionRecord[],
  id: string,
  preset: Preset,
): string {
  if (id === '') return id;
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const followsContinuations = preset.sessions.resumeFollowsContinuations;
  const startId = followsContinuations ? getCompressionTip(sessions, id, preset) : id;
  let current = byId.get(startId);
  if (current === undefined) return id;
  if (hasMessages(current)) return current.id;
  const visited = new Set<string>([current.id]);
  for (let step = 0; step < MAXIMUM_RESUME_DESCENT_STEPS; step++) {
    let children = childrenOf(sessions, current.id);
    if (followsContinuations) children = children.filter(isContinuationCandidate);
    const child = latestStarted(children);
    if (child === null || visited.has(child.id)) break;
    if (hasMessages(child)) return child.id;
    visited.add(child.id);
    current = child;
  }
  return id;
}
