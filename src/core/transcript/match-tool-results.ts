import type { Message } from './message.ts';

interface OpenCall {
  readonly messageIndex: number;
  readonly callIndex: number;
}

/**
 * The result message of every tool call, by position: `results[m][c]` answers call `c` of message
 * `m` (undefined while it has none; an empty list for messages without calls).
 *
 * Matching by id alone breaks when ids repeat, as in sessions stored before reply ids were made
 * unique (a provider answering `call_0` in every turn, or two calls with one id): a later result
 * would show under every call of its id. Here a result answers the newest assistant message that
 * still has an unanswered call of its id, and within that message the first such call, so a
 * repeated id pairs turn by turn and call by call. A result with no open call answers nothing.
 */
export function matchToolResults(messages: readonly Message[]): (Message | undefined)[][] {
  const results: (Message | undefined)[][] = messages.map((message) =>
    message.role === 'assistant' && Array.isArray(message.tool_calls)
      ? message.tool_calls.map(() => undefined)
      : [],
  );
  const openCallsById = new Map<string, OpenCall[]>();
  messages.forEach((message, messageIndex) => {
    if (message.role === 'assistant' && Array.isArray(message.tool_calls)) {
      message.tool_calls.forEach((call, callIndex) => {
        const id = typeof call.id === 'string' ? call.id : '';
        const open = openCallsById.get(id);
        if (open) open.push({ messageIndex, callIndex });
        else openCallsById.set(id, [{ messageIndex, callIndex }]);
      });
      return;
    }
    if (message.role !== 'tool') return;
    const open = openCallsById.get(typeof message.tool_call_id === 'string' ? message.tool_call_id : '');
    const newest = open?.[open.length - 1];
    if (!open || !newest) return;
    const position = open.findIndex((call) => call.messageIndex === newest.messageIndex);
    const [answered] = open.splice(position, 1);
    if (answered) results[answered.messageIndex]![answered.callIndex] = message;
  });
  return results;
}
