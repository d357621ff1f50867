import { hasToolCalls, type Message } from './message.ts';

/**
 * `[start, end)` of the assistant call and all its results around `index`, or of the message
 * alone outside a tool group: what must be kept or moved together so no call loses its results.
 */
export function toolGroupAround(messages: readonly Message[], index: number): [number, number] {
  let start = index;
  if (messages[index]!.role === 'tool') {
    while (start > 0 && messages[start]!.role === 'tool') start--;
    if (!hasToolCalls(messages[start]!)) return [index, index + 1];
  } else if (!hasToolCalls(messages[index]!)) return [index, index + 1];
  let end = start + 1;
  while (end < messages.length && messages[end]!.role === 'tool') end++;
  return [start, end];
}
