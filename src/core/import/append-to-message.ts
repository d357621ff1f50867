import type { Message, MessageContent } from '../transcript/message.ts';

/** Adds reasoning text to a message, after any it already has. */
export function appendReasoning(message: Message, text: string): void {
  message.reasoning =
    typeof message.reasoning === 'string' && message.reasoning ? `${message.reasoning}\n\n${text}` : text;
}

/** Adds content to a message: strings are joined by a blank line, anything else becomes parts. */
export function appendContent(message: Message, content: MessageContent): void {
  const current = message.content;
  if (typeof content === 'string' && typeof current === 'string') {
    message.content = current ? (content ? `${current}\n\n${content}` : current) : content;
    return;
  }
  const asParts = (value: MessageContent | undefined) =>
    typeof value === 'string'
      ? value
        ? [{ type: 'text', text: value }]
        : []
      : Array.isArray(value)
        ? value
        : [];
  message.content = [...asParts(current), ...asParts(content)];
}
