import { messageText, type Message } from '../transcript/message.ts';

/**
 * The text of a message that search indexes and snippets are cut from: its content text, the
 * tool name of a result, and each tool call's name and arguments — Hermes' FTS column is
 * `content || ' ' || tool_name || ' ' || tool_calls` (hermes-reference §11). Reasoning and
 * image data are not searchable, as in Hermes.
 */
export function messageSearchText(message: Message): string {
  const parts = [messageText(message)];
  const toolName = typeof message.tool_name === 'string' ? message.tool_name : message.name;
  if (message.role === 'tool' && typeof toolName === 'string') parts.push(toolName);
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      const name = call?.function?.name;
      const callArguments = call?.function?.arguments;
      parts.push([name, callArguments].filter((part) => typeof part === 'string').join(' '));
    }
  }
  return parts.filter((part) => part.length > 0).join('\n');
}
