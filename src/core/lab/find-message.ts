import { messageText, type Message } from '../transcript/message.ts';

/**
 * The next message after `from` (wrapping around) whose text, tool name or tool-call arguments
 * contain `query`, case-insensitively; -1 when none does.
 */
export function findMessage(messages: readonly Message[], query: string, from: number): number {
  const needle = query.trim().toLowerCase();
  const count = messages.length;
  if (needle === '' || count === 0) return -1;
  for (let step = 1; step <= count; step++) {
    const index = (((from + step) % count) + count) % count;
    if (messageMatches(messages[index]!, needle)) return index;
  }
  return -1;
}

/**
 * Every message whose text, tool name or tool-call arguments contain `query`, case-insensitively,
 * in order: what "3 of 12" counts and the list highlights.
 */
export function findMessages(messages: readonly Message[], query: string): number[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [];
  const found: number[] = [];
  for (let index = 0; index < messages.length; index++)
    if (messageMatches(messages[index]!, needle)) found.push(index);
  return found;
}

function messageMatches(message: Message, needle: string): boolean {
  if (messageText(message).toLowerCase().includes(needle)) return true;
  if (typeof message.name === 'string' && message.name.toLowerCase().includes(needle)) return true;
  if (!Array.isArray(message.tool_calls)) return false;
  return message.tool_calls.some(
    (call) =>
      String(call?.function?.name ?? '')
        .toLowerCase()
        .includes(needle) ||
      String(call?.function?.arguments ?? '')
        .toLowerCase()
        .includes(needle),
  );
}
