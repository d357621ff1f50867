import type { Message } from '../transcript/message.ts';
import type { TokenCounter } from './token-counter.ts';

/**
 * Tokens a chat API adds around every message (role markers, separators). OpenAI documents
 * 3 per message for its chat models; other providers differ by a token or two, so this is an
 * approximation on top of the exact content count.
 */
export const MESSAGE_OVERHEAD_TOKENS = 3;

/**
 * The text of a message that a tokenizer sees: role, content text, tool-call names and
 * argument JSON, and the tool name of a result. Images are not text and are left out.
 */
export function messageCountingText(message: Message): string {
  const parts: string[] = [message.role];
  const content = message.content;
  if (typeof content === 'string') parts.push(content);
  else if (Array.isArray(content)) {
    for (const part of content) {
      if (part && typeof part === 'object' && typeof part.text === 'string') parts.push(part.text);
    }
  } else if (content && typeof content === 'object') {
    const summary = (content as { text_summary?: unknown }).text_summary;
    if (typeof summary === 'string') parts.push(summary);
  }
  if (Array.isArray(message.tool_calls)) {
    for (const call of message.tool_calls) {
      if (!call || typeof call !== 'object' || !call.function) continue;
      parts.push(String(call.function.name ?? ''), String(call.function.arguments ?? ''));
    }
  }
  if (typeof message.name === 'string') parts.push(message.name);
  return parts.join('\n');
}

/** Exact tokens of one message with the given counter, including the per-message overhead. */
export function countMessageTokens(message: Message, counter: TokenCounter): number {
  return counter.count(messageCountingText(message)) + MESSAGE_OVERHEAD_TOKENS;
}
