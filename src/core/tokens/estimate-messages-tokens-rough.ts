import { assertNever } from '../shared/assert-never.ts';
import type { Preset } from '../presets/preset.ts';
import { isPlainObject } from '../shared/safe-parse-json.ts';
import type { Message } from '../transcript/message.ts';
import { roughTokensFromChars } from './estimate-tokens-rough.ts';
import { pythonReprLength } from './python-repr.ts';
import { pythonTruthy } from './python-truthy.ts';

/** One message's share of `estimate_messages_tokens_rough`: measured characters and image parts. */
export interface RoughMessageSize {
  /** `len(str(message))`, or of its image-stripped shadow (2026-07). */
  chars: number;
  /** Image parts priced at a flat `IMAGE_TOKENS_FLAT` each (2026-07; always 0 for 2026-04). */
  images: number;
}

/** Per-message sizes keyed by message identity; one cache per preset. Messages are immutable. */
export type RoughSizeCache = WeakMap<Message, RoughMessageSize>;

/** Flat token price of one image part in the 2026-07 estimate (Anthropic's pricing model). */
export const IMAGE_TOKENS_FLAT = 1500;

const IMAGE_PART_TYPES: ReadonlySet<unknown> = new Set(['image', 'image_url', 'input_image']);
const MULTIMODAL_IMAGE_TYPES: ReadonlySet<unknown> = new Set(['image', 'image_url']);
const ANTHROPIC_BLOCKS_KEY = '_anthropic_content_blocks';

const partType = (part: unknown): unknown => (isPlainObject(part) ? part.type : undefined);
const isImagePart = (part: unknown): boolean => IMAGE_PART_TYPES.has(partType(part));
const isMultimodalEnvelope = (content: unknown): content is Record<string, unknown> =>
  isPlainObject(content) && pythonTruthy(content._multimodal);

function countImages(message: Message): number {
  let count = 0;
  const content = message.content;
  if (Array.isArray(content)) for (const part of content) if (isImagePart(part)) count++;
  const stashed = message[ANTHROPIC_BLOCKS_KEY];
  if (Array.isArray(stashed)) for (const part of stashed) if (partType(part) === 'image') count++;
  if (isMultimodalEnvelope(content) && Array.isArray(content.content)) {
    for (const part of content.content) if (MULTIMODAL_IMAGE_TYPES.has(partType(part))) count++;
  }
  return count;
}

/**
 * Hermes `_estimate_message_chars`: the repr of a shadow copy without the Anthropic block stash,
 * with image parts reduced to `{'type': …, 'image': '[stripped]'}` and a `_multimodal` envelope
 * reduced to its text summary. The shadow is only built when something differs.
 */
function shadowChars(message: Message): number {
  const content = message.content;
  const hasImages = Array.isArray(content) && content.some(isImagePart);
  const multimodal = isMultimodalEnvelope(content);
  if (!hasImages && !multimodal && !(ANTHROPIC_BLOCKS_KEY in message)) return pythonReprLength(message);
  const shadow: Record<string, unknown> = {};
  for (const key of Object.keys(message)) {
    if (key === ANTHROPIC_BLOCKS_KEY) continue;
    const value = message[key];
    if (key !== 'content') shadow[key] = value;
    else if (Array.isArray(value))
      shadow[key] = value.map((part: unknown) =>
        isImagePart(part) ? { type: partType(part), image: '[stripped]' } : part,
      );
    else if (multimodal) shadow[key] = (value as Record<string, unknown>).text_summary ?? '';
    else shadow[key] = value;
  }
  return pythonReprLength(shadow);
}

/** One message's rough size under a preset. */
export function roughMessageSize(message: Message, preset: Preset): RoughMessageSize {
  const mode = preset.estimation.messageSize;
  switch (mode) {
    case 'full-repr':
      return { chars: pythonReprLength(message), images: 0 };
    case 'image-stripped-repr':
      return { chars: shadowChars(message), images: countImages(message) };
    default:
      return assertNever(mode);
  }
}

/** Combines summed sizes the way Hermes does: one rounding over all characters. */
export const roughTokensFromSizes = (chars: number, images: number): number =>
  roughTokensFromChars(chars) + IMAGE_TOKENS_FLAT * images;

/**
 * A message's share of Hermes' one rounding over a transcript: the tokens its characters add to
 * `(chars + 3) // 4` after the `charsBefore` of the messages before it, plus its images. Shares
 * add up to `estimate_messages_tokens_rough` exactly, where each message rounded on its own
 * would add up to a few tokens more (one per message at most); a share is within one token of
 * the message's own estimate.
 */
export const roughShareOf = (charsBefore: number, size: RoughMessageSize): number =>
  roughTokensFromChars(charsBefore + size.chars) -
  roughTokensFromChars(charsBefore) +
  IMAGE_TOKENS_FLAT * size.images;

/** One message's rough size, measured once per cache (messages are immutable). */
export function cachedRoughMessageSize(
  message: Message,
  preset: Preset,
  cache: RoughSizeCache | undefined,
): RoughMessageSize {
  const known = cache?.get(message);
  if (known) return known;
  const size = roughMessageSize(message, preset);
  cache?.set(message, size);
  return size;
}

/**
 * Hermes `estimate_messages_tokens_rough(messages)`.
 * 2026-07: `(Σ chars + 3) // 4 + 1500 × images` over image-stripped shadows.
 * 2026-04: `(Σ len(str(msg)) + 3) // 4`, base64 payloads included.
 */
export function estimateMessagesTokensRough(
  messages: readonly Message[],
  preset: Preset,
  cache?: RoughSizeCache,
): number {
  let chars = 0;
  let images = 0;
  for (let i = 0; i < messages.length; i++) {
    const size = cachedRoughMessageSize(messages[i]!, preset, cache);
    chars += size.chars;
    images += size.images;
  }
  return roughTokensFromSizes(chars, images);
}

/** The estimate of a single message on its own (rounded alone). */
export const estimateMessageTokensRough = (
  message: Message,
  preset: Preset,
  cache?: RoughSizeCache,
): number => estimateMessagesTokensRough([message], preset, cache);

/**
 * `min(estimate_messages_tokens_rough(messages), capTokens)`, stopping as soon as the cap is
 * reached. Callers that clamp the estimate anyway (the summary budget only needs to know
 * whether the turns reach its ceiling) skip measuring the rest of a long transcript.
 */
export function estimateMessagesTokensRoughCapped(
  messages: readonly Message[],
  preset: Preset,
  capTokens: number,
  cache?: RoughSizeCache,
): number {
  let chars = 0;
  let images = 0;
  for (let i = 0; i < messages.length; i++) {
    const size = cachedRoughMessageSize(messages[i]!, preset, cache);
    chars += size.chars;
    images += size.images;
    if (roughTokensFromSizes(chars, images) >= capTokens) return capTokens;
  }
  return Math.min(roughTokensFromSizes(chars, images), capTokens);
}
