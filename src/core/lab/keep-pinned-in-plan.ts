/**
 * The plan of a transcript with pinned messages: what `compactConversation` will do to the
 * strategy's plan once it has run, so the map, the after lane and the explanation show the
 * compaction that will really happen. A pin the strategy would summarise or drop is kept,
 * with its tool group (a pin never splits a call from its results); a pin it would shorten is
 * kept whole. System messages are the strategy's own and cannot be pinned. These are the
 * rules of `restorePinned` in `compact-conversation.ts`, applied to fates instead of messages.
 */
import { toolGroupAround } from '../transcript/tool-group-around.ts';
import type { PrunedToolOutput } from '../compression/prune-old-tool-results.ts';
import { FATE, type StrategyPlan } from '../strategies/strategy.ts';
import type { Message } from '../transcript/message.ts';

/** What the strategy would have done to a pinned message that is kept instead. */
export type PinRescue = 'summarized' | 'dropped' | 'shortened';

export interface PinnedPlanMessage {
  readonly index: number;
  /** Null when the strategy keeps it anyway. */
  readonly rescued: PinRescue | null;
}

export interface PinnedPlan {
  readonly fates: Uint8Array;
  readonly prunedSavings: ReadonlyMap<number, number>;
  readonly pruned: readonly PrunedToolOutput[];
  /** Every valid pin, ascending. */
  readonly pins: readonly PinnedPlanMessage[];
}

/** The pins that can be pinned: in range, not a system message, each once, ascending. */
function validPins(messages: readonly Message[], pinned: Iterable<number>): number[] {
  return [...new Set(pinned)]
    .filter(
      (index) =>
        Number.isInteger(index) &&
        index >= 0 &&
        index < messages.length &&
        messages[index]!.role !== 'system',
    )
    .sort((left, right) => left - right);
}

export function keepPinnedInPlan(
  plan: Pick<StrategyPlan, 'fates' | 'prunedSavings' | 'pruned'>,
  messages: readonly Message[],
  pinned: Iterable<number>,
): PinnedPlan {
  const pins = validPins(messages, pinned);
  if (pins.length === 0)
    return { fates: plan.fates, prunedSavings: plan.prunedSavings, pruned: plan.pruned, pins: [] };
  const fates = plan.fates.slice();
  const whole = new Set<number>();
  const described: PinnedPlanMessage[] = [];
  for (const index of pins) {
    const fate = plan.fates[index];
    if (fate === FATE.summarized || fate === FATE.dropped) {
      const [start, end] = toolGroupAround(messages, index);
      for (let member = start; member < end; member++) {
        fates[member] = FATE.kept;
        whole.add(member);
      }
      described.push({ index, rescued: fate === FATE.dropped ? 'dropped' : 'summarized' });
    } else if (fate === FATE.pruned) {
      fates[index] = FATE.kept;
      whole.add(index);
      described.push({ index, rescued: 'shortened' });
    } else described.push({ index, rescued: null });
  }
  const prunedSavings = new Map([...plan.prunedSavings].filter(([index]) => !whole.has(index)));
  return {
    fates,
    prunedSavings,
    pruned: plan.pruned.filter((item) => !whole.has(item.index)),
    pins: described,
  };
}
