/**
 * One entry's lane on the comparison's shared token axis: what becomes of each stretch of the
 * transcript (kept at the head, kept elsewhere, shortened, summarised, dropped), from the
 * entry's plan, and how large the context is afterwards. Every lane of a comparison is measured
 * in the same counting, so their lengths line up.
 */
import { FATE } from '../strategies/strategy.ts';

export const LANE_KINDS = ['head', 'kept', 'pruned', 'summary', 'dropped'] as const;
export type LaneKind = (typeof LANE_KINDS)[number];

/** Consecutive messages with the same fate, as a stretch of the axis. */
export interface LaneSegment {
  readonly kind: LaneKind;
  /** Messages `[start, end)`; the tool schemas are a segment with `start === end`. */
  readonly start: number;
  readonly end: number;
  /** Where the stretch starts on the axis (tool schemas sit after the system prompt). */
  readonly offset: number;
  readonly tokens: number;
}

/** The context after the compaction, in the lane's counting. */
export interface LaneAfter {
  readonly tokens: number;
  /** Kept and shortened messages, tool schemas and re-attached files. */
  readonly keptTokens: number;
  readonly summaryTokens: number;
}

export interface CompareLane {
  readonly segments: readonly LaneSegment[];
  /** The transcript's length on the axis (messages + tool schemas). */
  readonly totalTokens: number;
  readonly after: LaneAfter;
  /** What the plan projected (its `after.tokens`), for comparison with the real result. */
  readonly projectedAfterTokens: number;
}

const KIND_OF_FATE: Record<number, LaneKind> = {
  [FATE.kept]: 'kept',
  [FATE.pruned]: 'pruned',
  [FATE.summarized]: 'summary',
  [FATE.dropped]: 'dropped',
};

/**
 * The segments of one plan: kept messages before `headEnd` are the head, the tool schemas
 * (sent with every request) belong to it too; neighbours of one kind merge. Linear.
 *
 * @example buildLaneSegments(plan.fates, plan.headEnd, 1, counting.perMessage, counting.toolsTokens)
 */
export function buildLaneSegments(
  fates: Uint8Array,
  headEnd: number,
  /** 1 when the transcript opens with a system prompt (the tool schemas follow it), else 0. */
  systemEnd: number,
  tokensPerMessage: ArrayLike<number>,
  toolsTokens: number,
): LaneSegment[] {
  const segments: LaneSegment[] = [];
  let offset = 0;
  const push = (kind: LaneKind, start: number, end: number, tokens: number): void => {
    const last = segments[segments.length - 1];
    if (last && last.kind === kind && last.end === start) {
      segments[segments.length - 1] = { ...last, end, tokens: last.tokens + tokens };
    } else segments.push({ kind, start, end, offset, tokens });
    offset += tokens;
  };
  for (let index = 0; index < fates.length; index++) {
    if (index === systemEnd && toolsTokens > 0) push('head', index, index, toolsTokens);
    const fate = fates[index]!;
    const kind = fate === FATE.kept && index < headEnd ? 'head' : KIND_OF_FATE[fate]!;
    push(kind, index, index + 1, tokensPerMessage[index] ?? 0);
  }
  if (fates.length <= systemEnd && toolsTokens > 0) push('head', fates.length, fates.length, toolsTokens);
  return segments;
}
