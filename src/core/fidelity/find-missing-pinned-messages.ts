import { messageText, type Message, type ToolCall } from '../transcript/message.ts';

/**
 * The pinned input messages a compaction did not keep verbatim: for each pinned index of
 * `input`, is there a message in `output` with the same role, the same text, the same tool
 * calls (id, name, arguments) and the same `tool_call_id`? Markers and in-process flags a
 * strategy adds (`cache_control`, `_…` keys) do not matter; any change of text does. Identical
 * pinned messages each need their own copy in the output.
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
  const wanted = new Map<string, number>();
  const lengths = new Set<number>();
  const keys = pinned.map((index) => {
    const message = input[index]!;
    lengths.add(messageText(message).length);
    const key = verbatimKey(message);
    wanted.set(key, (wanted.get(key) ?? 0) + 1);
    return key;
  });
  const available = new Map<string, number>();
  for (const message of output) {
    // Only a message of a pinned message's length can be one; skip building keys for the rest.
    if (!lengths.has(messageText(message).length)) continue;
    const key = verbatimKey(message);
    if (wanted.has(key)) available.set(key, (available.get(key) ?? 0) + 1);
  }
  const missing: number[] = [];
  keys.forEach((key, position) => {
    const left = available.get(key) ?? 0;
    if (left > 0) available.set(key, left - 1);
    else missing.push(pinned[position]!);
  });
  return missing;
}

function verbatimKey(message: Message): string {
  const calls = (message.tool_calls ?? []).map((call: ToolCall) => [
    call.id,
    call.function?.name,
    call.function?.arguments,
  ]);
  return JSON.stringify([message.role, messageText(message), calls, message.tool_call_id ?? null]);
}
