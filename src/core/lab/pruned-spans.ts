import type { PrunedSpan } from './lab-plan.ts';
import { offsetOfMessage, type TokenAxis } from './token-axis.ts';

export interface PrunedSaving {
  readonly index: number;
  /** Tokens the replacement saves on this message (never more than the message has). */
  readonly savedTokens: number;
}

/** At most about this many hatched stretches per map, whatever the transcript length. */
export const MAX_PRUNED_SPANS = 600;

/**
 * Hatched stretches for outputs that pruning would shrink. Each saving is drawn at the end of
 * its message (the part that would disappear); stretches closer than 1/MAX_PRUNED_SPANS of the
 * axis are merged, so thousands of pruned outputs stay a few hundred elements.
 * `savings` must be sorted by index.
 */
export function buildPrunedSpans(
  axis: TokenAxis,
  savings: readonly PrunedSaving[],
  axisLength: number,
): PrunedSpan[] {
  const mergeGap = axisLength / MAX_PRUNED_SPANS;
  const spans: { start: number; end: number; savedTokens: number; outputs: number }[] = [];
  for (const saving of savings) {
    if (saving.savedTokens <= 0) continue;
    const end = offsetOfMessage(axis, saving.index + 1);
    const start = end - saving.savedTokens;
    const last = spans[spans.length - 1];
    if (last && start - last.end <= mergeGap) {
      last.end = end;
      last.savedTokens += saving.savedTokens;
      last.outputs += 1;
    } else {
      spans.push({ start, end, savedTokens: saving.savedTokens, outputs: 1 });
    }
  }
  return spans;
}
