import type { Message } from '../transcript/message.ts';

/**
 * The messages of a conversation's next request as Hermes counts them (`api_messages` before
 * sanitising): the system prompt as the first message, then the stored conversation. The live
 * loop's pre-request check measures this list, and the workspace shows it as the chat's context.
 * A chat keeps its system prompt on the session, never among its messages.
 */
export function requestMessages(systemPrompt: string, messages: readonly Message[]): Message[] {
  return systemPrompt ? [{ role: 'system', content: systemPrompt }, ...messages] : [...messages];
}
