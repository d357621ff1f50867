import { pythonStr } from '../tokens/python-repr.ts';
import type { ContentPart, MessageContent } from '../transcript/message.ts';

/**
 * A best-effort text view of message content, used for substring checks and summary detection
 * (Hermes `_content_text_for_contains`): strings as is, list parts' strings and `text` fields
 * joined with newlines (empty ones dropped), null as '', anything else as Python `str()`.
 */
export function contentTextForContains(content: unknown): string {
  if (content === null || content === undefined) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts: string[] = [];
    for (const item of content) {
      if (typeof item === 'string') {
        if (item) parts.push(item);
      } else if (item && typeof item === 'object') {
        const text = (item as { text?: unknown }).text;
        if (typeof text === 'string' && text) parts.push(text);
      }
    }
    return parts.join('\n');
  }
  return pythonStr(content);
}

/**
 * Appends (or prepends) plain text to message content without breaking its shape
 * (Hermes `_append_text_to_content`): null becomes the text, strings are concatenated, and a
 * part list gets a new `{type:'text'}` part at the front or the back.
 */
export function appendTextToContent(content: unknown, text: string, prepend = false): MessageContent {
  if (content === null || content === undefined) return text;
  if (typeof content === 'string') return prepend ? text + content : content + text;
  if (Array.isArray(content)) {
    const textPart = { type: 'text', text };
    const parts = content as ContentPart[];
    return prepend ? [textPart, ...parts] : [...parts, textPart];
  }
  const rendered = contentTextForContains(content);
  return prepend ? text + rendered : rendered + text;
}
