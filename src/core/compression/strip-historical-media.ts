/**
 * Historical media stripping (2026-07, hermes-reference §5.10): after a compaction, images in
 * messages older than the newest image-bearing user turn are replaced with a placeholder, so
 * every later request stops re-sending the same multi-megabyte base64 payloads.
 */
import type { Message } from '../transcript/message.ts';
import { HISTORICAL_IMAGE_PLACEHOLDER } from './markers.ts';

const IMAGE_PART_TYPES = new Set(['image_url', 'input_image', 'image']);

export const isImagePart = (part: unknown): boolean =>
  !!part && typeof part === 'object' && IMAGE_PART_TYPES.has((part as { type?: unknown }).type as string);

export const contentHasImages = (content: unknown): boolean =>
  Array.isArray(content) && content.some(isImagePart);

export interface StrippedMedia {
  readonly messages: Message[];
  /** Indices (in the given list) of messages whose images were replaced. */
  readonly strippedIndices: readonly number[];
}

export function stripHistoricalMedia(messages: readonly Message[]): StrippedMedia {
  let anchor = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'user' && contentHasImages(message.content)) {
      anchor = i;
      break;
    }
  }
  if (anchor <= 0) return { messages: [...messages], strippedIndices: [] };
  const strippedIndices: number[] = [];
  const result = messages.map((message, index) => {
    if (index >= anchor || !contentHasImages(message.content)) return message;
    strippedIndices.push(index);
    const copy: Message = {
      ...message,
      content: (message.content as unknown[]).map((part) =>
        isImagePart(part) ? { type: 'text', text: HISTORICAL_IMAGE_PLACEHOLDER } : part,
      ) as Message['content'],
    };
    // The sidecar holds the exact bytes sent before; replaying it would resend the images.
    delete copy.api_content;
    return copy;
  });
  return { messages: result, strippedIndices };
}
