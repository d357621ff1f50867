/**
 * Bugs the strategy invariants property found and that are not fixed yet, each as a precise
 * test of the case it covers and the checks it breaks. The property skips exactly those checks
 * in exactly those cases, and checks everything else; `known-strategy-bugs.test.ts` holds one
 * failing example of each (`it.fails`), so a fix turns it red and its entry here must go.
 */
import { isContextSummaryContent } from '#core/compression/markers.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import { HERMES_2026_04_STRATEGY, HERMES_2026_07_STRATEGY } from '#core/strategies/hermes.ts';
import { FATE, type Strategy } from '#core/strategies/strategy.ts';
import type { Message } from '#core/transcript/message.ts';

/** The checks of the property a known bug can break. */
export type InvariantCheck = 'latest-ask' | 'pin' | 'summary-in-place';

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

/**
 * Hermes 2026-07 in a resumed session (an earlier summary in the head) merges its new summary
 * into the first tail message but records the summary at the earlier summary's position; a pin
 * on that tail message is then put back verbatim and the new summary is lost with everything it
 * stood for, the latest ask included.
 */
export const PIN_ON_MERGE_TARGET_IN_RESUMED_SESSION: KnownBug = {
  strategy: HERMES_2026_07_STRATEGY,
  breaks: ['latest-ask', 'summary-in-place'],
  applies: ({ messages, pin, fates }) => {
    const resumed = messages.some(
      (message) => message.role !== 'system' && isContextSummaryContent(message.content, HERMES_2026_07),
    );
    const lastSummarised = fates.lastIndexOf(FATE.summarized);
    return resumed && lastSummarised >= 0 && pin === lastSummarised + 1;
  },
};

export const KNOWN_STRATEGY_BUGS: readonly KnownBug[] = [
  PINNED_RESULT_OF_SUMMARISED_CALL,
  PIN_ON_MERGE_TARGET_IN_RESUMED_SESSION,
];

/** The checks known bugs of `strategy` break in this case (usually none). */
export function checksBrokenByKnownBugs(strategy: Strategy, compaction: CompactionCase): Set<InvariantCheck> {
  return new Set(
    KNOWN_STRATEGY_BUGS.filter((bug) => bug.strategy === strategy && bug.applies(compaction)).flatMap(
      (bug) => bug.breaks,
    ),
  );
}
