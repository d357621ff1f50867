import type { TailCutStep } from '../compression/find-tail-cut.ts';
import { assertNever } from '../shared/assert-never.ts';
import { formatCount } from '../shared/format-count.ts';
import { plural } from '../shared/plural.ts';

const messages = (count: number): string => plural(count, 'message');
const at = (index: number): string => `#${formatCount(index)}`;

/**
 * One sentence per step of the tail search (hermes-reference §5.4), in words a user can check
 * against the message list: why the protected tail starts where it does.
 */
export function describeTailCutStep(step: TailCutStep): string {
  switch (step.kind) {
    case 'budget-walk':
      return step.reachedHead
        ? `Budget walk: walking back from the newest message, all ${messages(step.acceptedMessages)} after the head ` +
            `(${formatCount(step.acceptedTokens)} tokens, counted after pruning) fit under the soft ceiling of ` +
            `1.5 × ${formatCount(step.budget)} = ${formatCount(step.softCeiling)} tokens.`
        : `Budget walk: walking back from the newest message, the tail took ${messages(step.acceptedMessages)} ` +
            `(${formatCount(step.acceptedTokens)} tokens, counted after pruning) before the next would pass the soft ` +
            `ceiling of 1.5 × ${formatCount(step.budget)} = ${formatCount(step.softCeiling)} tokens, so the cut fell ` +
            `at ${at(step.cut)}.`;
    case 'rewalk':
      return (
        `Everything after the head fitted under the soft ceiling, so the walk was redone at the raw budget of ` +
        `${formatCount(step.budget)}: ${messages(step.acceptedMessages)} / ${formatCount(step.acceptedTokens)} tokens after pruning, ` +
        `cut at ${at(step.cut)} (Hermes #40803).`
      );
    case 'floor':
      return step.to > step.from
        ? `Collapsed to the minimum: with everything after the head in the tail there would be nothing to ` +
            `summarise, so the tail shrinks to its minimum of ${messages(step.minTail)} (min_tail) and the cut moves ` +
            `forward from ${at(step.from)} to ${at(step.to)}. A larger budget does not keep more here: it is what ` +
            `lets the walk reach the head.`
        : `Floor: the tail keeps at least ${messages(step.minTail)} (min_tail), so the cut moved back from ` +
            `${at(step.from)} to ${at(step.to)}.`;
    case 'align-backward':
      return (
        `Aligned back over a tool group: a cut at ${at(step.from)} would have separated tool calls from their ` +
        `results, so it moved back to ${at(step.to)} and the whole group stays together.`
      );
    case 'last-user':
      return `Moved to keep the last user message (${at(step.userIndex)}) in the tail: ${at(step.from)} → ${at(step.to)}.`;
    case 'causal-coupling':
      return (
        `The last user message (${at(step.userIndex)}) sits right at the head end, so it is summarised together ` +
        `with its reply (up to ${at(step.pairEnd)}) instead: ${at(step.from)} → ${at(step.to)} (Hermes #22523).`
      );
    case 'last-assistant':
      return (
        `Moved back to keep the latest visible assistant reply (${at(step.assistantIndex)}) in the tail: ` +
        `${at(step.from)} → ${at(step.to)}.`
      );
    case 'progress-floor':
      return `The tail must start after the head: ${at(step.from)} → ${at(step.to)}.`;
    case 'align-forward':
      return `Slid forward past tool results so no tool group is split: ${at(step.from)} → ${at(step.to)}.`;
    default:
      return assertNever(step);
  }
}

/** All steps, in the order they moved the cut. */
export const describeTailCut = (steps: readonly TailCutStep[]): string[] => steps.map(describeTailCutStep);
