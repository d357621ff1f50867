import { messageText, type Message, type ToolCall } from '../transcript/message.ts';

/**
 * Where each pinned input message stands in a compaction's output, verbatim: the same object
 * (what the compaction kept or put back), else a message with the same role, text, tool calls
 * (id, name, arguments) and `tool_call_id` — markers and in-process flags a strategy adds
 * (`cache_control`, `_…` keys) do not matter, any change of text does. Each output message
 * holds at most one pin, so identical pinned messages each need their own copy. A pin follows
 * its message through a compaction this way: the output index is the pin in the result.
 *
 * @returns output index by pinned input index; a pin the output does not hold is absent.
 * @example locatePinnedMessages(messages, [3, 17], compacted) // Map { 3 => 2 } (#17 was lost)
 */
export function locatePinnedMessages(
  input: readonly Message[],
  pinnedIndices: Iterable<number>,
  output: readonly Message[],
): Map<number, number> {
  const pinned = [...new Set(pinnedIndices)]
    .filter((index) => Number.isInteger(index) && index >= 0 && index < input.length)
    .sort((left, right) => left - right);
  const located = new Map<number, number>();
  if (pinned.length === 0) return located;
  const taken = new Set<number>();
  // The same object first: what the compaction kept stands where it was put.
  const positionOf = new Map<Message, number>();
  output.forEach((message, position) => {
    if (!positionOf.has(message)) positionOf.set(message, position);
  });
  const unmatched: number[] = [];
  for (const index of pinned) {
    const position = positionOf.get(input[index]!);
    if (position === undefined || taken.has(position)) unmatched.push(index);
    else {
      located.set(index, position);
      taken.add(position);
    }
  }
  if (unmatched.length === 0) return located;
  // Then by content, each copy once, in order.
  const wanted = new Map<string, number[]>();
  const lengths = new Set<number>();
  for (const index of unmatched) {
    const message = input[index]!;
    lengths.add(messageText(message).length);
    const key = verbatimKey(message);
    wanted.set(key, [...(wanted.get(key) ?? []), index]);
  }
  output.forEach((message, position) => {
    if (taken.has(position)) return;
    // Only a message of a pinned message's length can be one; skip building keys for the rest.
    if (!lengths.has(messageText(message).length)) return;
    const waiting = wanted.get(verbatimKey(message));
    const index = waiting?.shift();
    if (index === undefined) return;
    located.set(index, position);
    taken.add(position);
  });
  return located;
}

/** What "verbatim" compares: role, text, tool calls and the result's call id. */
function verbatimKey(message: Message): string {
  const calls = (message.tool_calls ?? []).map((call: ToolCall) => [
    call.id,
    call.function?.name,
    call.function?.arguments,
  ]);
  return JSON.stringify([message.role, messageText(message), calls, message.tool_call_id ?? null]);
}
