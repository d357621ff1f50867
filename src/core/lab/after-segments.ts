import { FATE } from '../strategies/strategy.ts';
import type { TokenAxis } from './token-axis.ts';

/** One stretch of the projected context after a compaction, in the order the model reads it. */
export interface AfterSegment {
  readonly kind: AfterSegmentKind;
  readonly tokens: number;
  readonly messages: number;
}

export type AfterSegmentKind = 'system' | 'tools' | 'head' | 'summary' | 'kept' | 'reattached' | 'tail';

export interface AfterSegmentsInput {
  readonly axis: TokenAxis;
  readonly fates: Uint8Array;
  readonly headEnd: number;
  readonly tailStart: number;
  /** Tokens each shortened message gives back (the strategy's `prunedSavings`). */
  readonly prunedSavings: ReadonlyMap<number, number>;
  readonly summaryTokens: number;
  readonly summaryCount: number;
  readonly reattachedTokens: number;
  readonly reattachedCount: number;
}

/**
 * The "after" picture in the map's counting: what survives of each region (kept messages, and
 * shortened ones less what shortening reclaims), the summaries at their budget and re-attached
 * files. The segments add up to `AfterProjection.tokens`. Empty segments are left out.
 */
export function afterSegments(input: AfterSegmentsInput): AfterSegment[] {
  const { axis, fates } = input;
  const count = axis.messageCount;
  const systemEnd = Math.min(axis.systemEnd, count);
  const headEnd = Math.max(systemEnd, Math.min(input.headEnd, count));
  const tailStart = Math.max(headEnd, Math.min(input.tailStart, count));
  const survivors = (start: number, end: number): { tokens: number; messages: number } => {
    let tokens = 0;
    let messages = 0;
    for (let index = start; index < end; index++) {
      const fate = fates[index];
      if (fate !== FATE.kept && fate !== FATE.pruned) continue;
      messages++;
      const whole = axis.prefix[index + 1]! - axis.prefix[index]!;
      const saved = fate === FATE.pruned ? (input.prunedSavings.get(index) ?? 0) : 0;
      tokens += Math.max(0, whole - saved);
    }
    return { tokens, messages };
  };
  const segments: AfterSegment[] = [
    { kind: 'system', ...survivors(0, systemEnd) },
    { kind: 'tools', tokens: axis.toolsTokens, messages: 0 },
    { kind: 'head', ...survivors(systemEnd, headEnd) },
    { kind: 'summary', tokens: input.summaryTokens, messages: input.summaryCount },
    { kind: 'kept', ...survivors(headEnd, tailStart) },
    { kind: 'reattached', tokens: input.reattachedTokens, messages: input.reattachedCount },
    { kind: 'tail', ...survivors(tailStart, count) },
  ];
  return segments
    .map((segment) => ({ ...segment, tokens: Math.round(segment.tokens) }))
    .filter((segment) => segment.tokens > 0 || segment.messages > 0);
}
