import type { ContentPart, ImageUrlPart, MessageContent, TextPart } from '../transcript/message.ts';

/**
 * Message content from a list of parts: a lone text part becomes a plain string (what Hermes
 * itself stores), no parts become '', anything else stays a part list.
 */
export function partsToContent(parts: readonly ContentPart[]): MessageContent {
  if (parts.length === 0) return '';
  const only = parts[0]!;
  if (parts.length === 1 && only.type === 'text' && typeof only.text === 'string') return only.text;
  return [...parts];
}

export const textPart = (text: string): TextPart => ({ type: 'text', text });

export const imagePart = (url: string): ImageUrlPart => ({ type: 'image_url', image_url: { url } });

/** Whether content carries nothing a model would read. */
export function isEmptyContent(content: MessageContent | undefined): boolean {
  if (content === undefined || content === null) return true;
  if (typeof content === 'string') return content.trim().length === 0;
  if (Array.isArray(content)) return content.length === 0;
  return false;
}
