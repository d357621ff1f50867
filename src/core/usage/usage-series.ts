import { cacheHitRate } from './cache-hit-rate.ts';
import type { UsageTurn } from './usage-turn.ts';

/** One conversation turn on the usage chart. */
export interface UsagePoint {
  /** 1-based turn number across the whole lineage (summary requests are not turns). */
  turn: number;
  usage: UsageTurn;
  promptTokens: number;
  cacheHitRate: number | null;
  /** Index of the turn's session in the lineage (root = 0). */
  segmentIndex: number;
}

/** Where the conversation was compacted, between two turns of the chart. */
export interface CompactionMarker {
  /** The marker sits after turn `afterTurn` (0: before the first turn). */
  afterTurn: number;
  /** The summariser's requests recorded at this point (none when only the session changed). */
  summaryCalls: UsageTurn[];
  /** Set when the chain moves on to a continuation session here (rotation). */
  continuation: { segmentIndex: number; sessionId: string } | null;
}

export interface UsageSeries {
  points: UsagePoint[];
  markers: CompactionMarker[];
}

/**
 * The per-turn series of a session or a lineage: conversation turns numbered in order, and the
 * compaction points between them. A compaction is seen two ways, merged when they coincide: the
 * summariser's request (an in-place compaction has only this), and the step from one session of
 * the chain to its continuation (a rotation; an imported chain has only this).
 *
 * Turns are ordered by session in `segmentIds` order (sessions not listed come last), and inside
 * a session in the given order, which is the order they were recorded in.
 */
export function buildUsageSeries(
  turns: readonly UsageTurn[],
  segmentIds: readonly string[] = [],
): UsageSeries {
  const order = [...segmentIds];
  for (const turn of turns) if (!order.includes(turn.sessionId)) order.push(turn.sessionId);
  const turnsBySession = new Map<string, UsageTurn[]>(order.map((id) => [id, []]));
  for (const turn of turns) turnsBySession.get(turn.sessionId)?.push(turn);

  const points: UsagePoint[] = [];
  const markers: CompactionMarker[] = [];
  const markerAt = (afterTurn: number): CompactionMarker => {
    const last = markers[markers.length - 1];
    if (last?.afterTurn === afterTurn) return last;
    const marker: CompactionMarker = { afterTurn, summaryCalls: [], continuation: null };
    markers.push(marker);
    return marker;
  };

  order.forEach((sessionId, segmentIndex) => {
    // Only the listed chain continues session to session; extra sessions are not continuations.
    if (segmentIndex > 0 && segmentIndex < segmentIds.length) {
      markerAt(points.length).continuation = { segmentIndex, sessionId };
    }
    for (const usage of turnsBySession.get(sessionId) ?? []) {
      // A probe's calls are billed (the totals count them) but are not turns of the conversation.
      if (usage.probe) continue;
      if (usage.compaction) {
        markerAt(points.length).summaryCalls.push(usage);
        continue;
      }
      points.push({
        turn: points.length + 1,
        usage,
        promptTokens: usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens,
        cacheHitRate: cacheHitRate(usage),
        segmentIndex,
      });
    }
  });
  return { points, markers };
}
