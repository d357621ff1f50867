import type { Preset } from '../presets/preset.ts';
import {
  childrenOf,
  END_REASONS,
  isContinuationCandidate,
  latestStarted,
  type SessionRecord,
} from './session-record.ts';

/** Hermes stops walking a chain after this many hops (and on any cycle). */
export const MAXIMUM_CHAIN_STEPS = 100;

/**
 * The live end of a compression continuation chain (`get_compression_tip`, hermes-reference §11):
 * from a session that ended with `compression`, step to its continuation child, and repeat.
 *
 * 2026-07 skips branch, delegate and tool children and prefers, in order: children that were
 * themselves compressed, then live ones, then the rest; newest activity; newest start; highest id.
 * 2026-04 took the latest-started child that started at or after the parent ended, with no
 * exclusions — so a later delegate or stale sibling could take over the chain.
 */
export function getCompressionTip(sessions: readonly SessionRecord[], id: string, preset: Preset): string {
  const byId = new Map(sessions.map((session) => [session.id, session]));
  const visited = new Set<string>([id]);
  const start = byId.get(id);
  if (start === undefined) return id;
  let current: SessionRecord = start;
  for (let step = 0; step < MAXIMUM_CHAIN_STEPS; step++) {
    if (current.endReason !== END_REASONS.compression) break;
    const next: SessionRecord | null =
      preset.sessions.continuationChoice === 'best-continuation'
        ? bestContinuation(sessions, current)
        : legacyContinuation(sessions, current);
    if (next === null || visited.has(next.id)) break;
    visited.add(next.id);
    current = next;
  }
  return current.id;
}

function bestContinuation(sessions: readonly SessionRecord[], parent: SessionRecord): SessionRecord | null {
  const candidates = childrenOf(sessions, parent.id).filter(isContinuationCandidate);
  candidates.sort(
    (first, second) =>
      statusRank(first) - statusRank(second) ||
      activity(second) - activity(first) ||
      second.startedAt - first.startedAt ||
      (second.id > first.id ? 1 : second.id < first.id ? -1 : 0),
  );
  return candidates[0] ?? null;
}

function legacyContinuation(sessions: readonly SessionRecord[], parent: SessionRecord): SessionRecord | null {
  const endedAt = parent.endedAt;
  if (endedAt === null) return null;
  return latestStarted(childrenOf(sessions, parent.id).filter((child) => child.startedAt >= endedAt));
}

function statusRank(session: SessionRecord): number {
  if (session.endReason === END_REASONS.compression) return 0;
  return session.endedAt === null ? 1 : 2;
}

const activity = (session: SessionRecord): number => session.lastMessageAt ?? session.startedAt;
