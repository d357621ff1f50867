import { messageText, type Message } from '../transcript/message.ts';

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
