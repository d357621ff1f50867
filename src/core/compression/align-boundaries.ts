import type { Message } from '../transcript/message.ts';

const isTool = (message: Message | undefined): boolean => message?.role === 'tool';

/** Python truthiness of `msg.get("tool_calls")`: a non-empty list (or any other truthy value). */
export function hasToolCallsField(message: Message | undefined): boolean {
  const calls: unknown = message?.tool_calls;
  if (Array.isArray(calls)) return calls.length > 0;
  return calls !== undefined && calls !== null && calls !== false && calls !== '' && calls !== 0;
}

/**
 * Hermes `_align_boundary_forward`: a boundary sitting on tool results slides forward past all of
 * them, so a head never ends between a call and its results.
 */
export function alignBoundaryForward(messages: readonly Message[], index: number): number {
  let aligned = index;
  while (aligned < messages.length && isTool(messages[aligned])) aligned++;
  return aligned;
}

/**
 * Hermes `_align_boundary_backward`: step back over the tool results right before `index`; if
 * that lands on the assistant that made the calls, the cut moves to it so the whole
 * call/result group is summarised together. Unchanged at or beyond either end.
 */
export function alignBoundaryBackward(messages: readonly Message[], index: number): number {
  if (index <= 0 || index >= messages.length) return index;
  let check = index - 1;
  while (check >= 0 && isTool(messages[check])) check--;
  const candidate = messages[check];
  if (check >= 0 && candidate?.role === 'assistant' && hasToolCallsField(candidate)) return check;
  return index;
}
