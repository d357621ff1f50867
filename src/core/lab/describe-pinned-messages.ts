import { formatCount } from '../shared/format-count.ts';
import { plural } from '../shared/plural.ts';
import type { PinnedPlanMessage } from './keep-pinned-in-plan.ts';

const WOULD_HAVE: Record<NonNullable<PinnedPlanMessage['rescued']>, string> = {
  summarized: 'summarised',
  dropped: 'dropped',
  shortened: 'shortened',
};

/**
 * What a plan does with the pinned messages, in words: how many are kept verbatim, and each
 * one the strategy would have summarised, dropped or shortened and keeps instead (the same
 * sentences the compaction's notes use). Nothing when nothing is pinned.
 *
 * @example describePinnedMessages([{ index: 12, rescued: 'summarized' }])
 * // ['1 pinned message kept verbatim.', 'Pinned message #12 kept verbatim: this strategy would have summarised it.']
 */
export function describePinnedMessages(pins: readonly PinnedPlanMessage[]): string[] {
  if (pins.length === 0) return [];
  const lines = [`${plural(pins.length, 'pinned message')} kept verbatim.`];
  for (const pin of pins) {
    if (pin.rescued === null) continue;
    lines.push(
      `Pinned message #${formatCount(pin.index)} kept ${pin.rescued === 'shortened' ? 'whole' : 'verbatim'}: this strategy would have ${WOULD_HAVE[pin.rescued]} it.`,
    );
  }
  return lines;
}
