import { messageText, type Message } from './message.ts';

const PREVIEW_MAX_CHARS = 160;

/** One line describing a message for lists: its text, or the calls it makes. */
export function messagePreview(message: Message): string {
  const text = messageText(message).replace(/\s+/g, ' ').trim();
  const calls = Array.isArray(message.tool_calls)
    ? message.tool_calls.map(
        (call) => `${call?.function?.name ?? '?'}(${shortArguments(call?.function?.arguments)})`,
      )
    : [];
  const line = [text, calls.length > 0 ? `→ ${calls.join(', ')}` : ''].filter(Boolean).join(' ');
  if (line.length === 0) return Array.isArray(message.content) ? '[non-text content]' : '(empty)';
  return line.length > PREVIEW_MAX_CHARS ? `${line.slice(0, PREVIEW_MAX_CHARS - 1)}…` : line;
}

function shortArguments(argumentsJson: unknown): string {
  if (typeof argumentsJson !== 'string') return '';
  const flat = argumentsJson.replace(/\s+/g, ' ');
  return flat.length > 60 ? `${flat.slice(0, 59)}…` : flat;
}
