/**
 * Bugs the strategy invariants property found and that are not fixed yet, each as a precise
 * test of the case it covers and the checks it breaks. The property skips exactly those checks
 * in exactly those cases, and checks everything else; `known-strategy-bugs.test.ts` holds one
 * failing example of each (`it.fails`), so a fix turns it red and its entry here must go.
 */
import { HERMES_2026_04_STRATEGY } from '#core/strategies/hermes.ts';
import { FATE, type Strategy } from '#core/strategies/strategy.ts';
import type { Message } from '#core/transcript/message.ts';

/** The checks of the property a known bug can break. */
export type InvariantCheck = 'pin';

/** What a known bug is judged on: the input, the pin, and what the plan and compaction did. */
export interface CompactionCase {
  readonly messages: readonly Message[];
  readonly pin: number;
  /** The compaction's fates (pins restored). */
  readonly fates: Uint8Array;
}

export interface KnownBug {
  readonly strategy: Strategy;
  readonly breaks: readonly InvariantCheck[];
  readonly applies: (compaction: CompactionCase) => boolean;
}

/**
 * Hermes 2026-04 loses a pinned tool result whose call its progress floor summarised: the tail
 * starts inside the tool group, and the orphaned results go with the call.
 */
export const PINNED_RESULT_OF_SUMMARISED_CALL: KnownBug = {
  strategy: HERMES_2026_04_STRATEGY,
  breaks: ['pin'],
  applies: ({ messages, pin, fates }) => {
    if (messages[pin]?.role !== 'tool') return false;
    let owner = pin - 1;
    while (owner >= 0 && messages[owner]!.role === 'tool') owner--;
    return owner >= 0 && fates[owner] === FATE.summarized;
  },
};

export const KNOWN_STRATEGY_BUGS: readonly KnownBug[] = [PINNED_RESULT_OF_SUMMARISED_CALL];

/** The checks known bugs of `strategy` break in this case (usually none). */
export function checksBrokenByKnownBugs(strategy: Strategy, compaction: CompactionCase): Set<InvariantCheck> {
  return new Set(
    KNOWN_STRATEGY_BUGS.filter((bug) => bug.strategy === strategy && bug.applies(compaction)).flatMap(
      (bug) => bug.breaks,
    ),
  );
}
