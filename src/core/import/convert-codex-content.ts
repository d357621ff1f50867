import type { ContentPart, MessageContent } from '../transcript/message.ts';
import { isPlainObject } from '../shared/safe-parse-json.ts';
import { imagePart, partsToContent, textPart } from './parts-to-content.ts';
import { stringifyJsonValue } from './stringify-json-value.ts';

const TEXT_ITEM_TYPES = new Set([
  'input_text',
  'output_text',
  'text',
  'summary_text',
  'reasoning_text',
  'refusal',
]);

/**
 * Content of a Responses-API message or tool output: text items joined, `input_image` items
 * with a url kept as image parts. Encrypted items and images without a url are dropped;
 * `droppedItems` counts them.
 */
export function convertCodexContent(content: unknown): {
  content: MessageContent;
  text: string;
  droppedItems: number;
} {
  if (typeof content === 'string') return { content, text: content, droppedItems: 0 };
  if (!Array.isArray(content)) {
    if (content === undefined || content === null) return { content: '', text: '', droppedItems: 0 };
    if (isPlainObject(content) && typeof content.content === 'string') {
      // Older rollouts: `output: {content, success}`.
      return { content: content.content, text: content.content, droppedItems: 0 };
    }
    if (isPlainObject(content) && typeof content.type === 'string' && TEXT_ITEM_TYPES.has(content.type)) {
      return convertCodexContent([content]);
    }
    const json = stringifyJsonValue(content) ?? '';
    return { content: json, text: json, droppedItems: 0 };
  }
  const parts: ContentPart[] = [];
  const texts: string[] = [];
  let droppedItems = 0;
  for (const item of content) {
    if (typeof item === 'string') {
      texts.push(item);
      parts.push(textPart(item));
    } else if (isPlainObject(item) && typeof item.type === 'string' && TEXT_ITEM_TYPES.has(item.type)) {
      const text =
        typeof item.text === 'string' ? item.text : typeof item.refusal === 'string' ? item.refusal : '';
      texts.push(text);
      parts.push(textPart(text));
    } else if (isPlainObject(item) && item.type === 'input_image' && typeof item.image_url === 'string') {
      parts.push(imagePart(item.image_url));
    } else droppedItems += 1;
  }
  const text = texts.join('\n');
  const onlyText = parts.every((part) => part.type === 'text');
  return { content: onlyText ? text : partsToContent(parts), text, droppedItems };
}

/** Text of a `reasoning` item: its visible summary, else its plain reasoning text. */
export function codexReasoningText(item: Record<string, unknown>): string {
  for (const field of [item.summary, item.content]) {
    if (!Array.isArray(field)) continue;
    const texts = field.flatMap((entry: unknown) =>
      isPlainObject(entry) && typeof entry.text === 'string' && entry.text.trim() ? [entry.text.trim()] : [],
    );
    if (texts.length > 0) return texts.join('\n\n');
  }
  return '';
}
