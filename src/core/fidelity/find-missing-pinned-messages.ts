import type { Message } from '../transcript/message.ts';
import { locatePinnedMessages } from './locate-pinned-messages.ts';

/**
 * The pinned input messages a compaction did not keep verbatim: for each pinned index of
 * `input`, is there a message in `output` with the same role, the same text, the same tool
 * calls (id, name, arguments) and the same `tool_call_id` (`locatePinnedMessages`)? Markers and
 * in-process flags a strategy adds (`cache_control`, `_…` keys) do not matter; any change of
 * text does. Identical pinned messages each need their own copy in the output.
 *
 * @returns the missing pinned indices, ascending; empty when every pin survived.
 * @example findMissingPinnedMessages(messages, [3, 17], compacted) // [17]
 */
export function findMissingPinnedMessages(
  input: readonly Message[],
  pinnedIndices: Iterable<number>,
  output: readonly Message[],
): number[] {
  const pinned = [...new Set(pinnedIndices)]
    .filter((index) => index >= 0 && index < input.length)
    .sort((left, right) => left - right);
  if (pinned.length === 0) return [];
  const located = locatePinnedMessages(input, pinned, output);
  return pinned.filter((index) => !located.has(index));
}
