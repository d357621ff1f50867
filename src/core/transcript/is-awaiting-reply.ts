import { hasToolCalls, type Message } from './message.ts';

/**
 * Whether a conversation ends waiting for the model: its last message is the user's, a tool
 * result, or a call whose results are still to come. A stopped or failed turn leaves the stored
 * conversation in this state (the partial reply is discarded), so it is what Retry answers —
 * also after a reload, when the failure itself is no longer on screen.
 *
 * @example isAwaitingReply([{ role: 'user', content: 'hello' }]) // true
 */
export function isAwaitingReply(messages: readonly Message[]): boolean {
  const last = messages[messages.length - 1];
  if (last === undefined) return false;
  if (last.role === 'assistant') return hasToolCalls(last);
  return last.role === 'user' || last.role === 'tool';
}
