import { isPlainObject } from '../../shared/safe-parse-json.ts';
import type { MessageContent } from '../../transcript/message.ts';
import type { ProviderWarning } from '../provider-warning.ts';
import { stripInProcessKeys } from '../strip-in-process-keys.ts';
import type {
  AnthropicCacheControl,
  AnthropicImageBlock,
  AnthropicPassThroughBlock,
  AnthropicTextBlock,
} from './anthropic-wire-types.ts';

/** `data:<media type>;base64,<data>`: the only data URL form the API can take as an image. */
const BASE64_DATA_URL = /^data:([^;,]+);base64,(.*)$/s;
/** The blocks plain content can become; all of them may carry a cache marker. */
export type AnthropicPlainBlock = AnthropicTextBlock | AnthropicImageBlock | AnthropicPassThroughBlock;

const PASS_THROUGH_TYPES: ReadonlySet<string> = new Set(['document', 'search_result']);

/**
 * A `cache_control` value as the API takes it, or undefined. Anything that is not an ephemeral
 * marker is not a marker (a stale or foreign value must not become a breakpoint).
 */
export function readCacheControl(value: unknown): AnthropicCacheControl | undefined {
  if (!isPlainObject(value) || value.type !== 'ephemeral') return undefined;
  return value.ttl === '1h' || value.ttl === '5m'
    ? { type: 'ephemeral', ttl: value.ttl }
    : { type: 'ephemeral' };
}

/**
 * Internal message content (a string, null, or OpenAI content parts) as Anthropic content
 * blocks. Empty text is dropped because the API rejects empty text blocks; a marker it carried
 * moves to the block before it so the breakpoint still covers the same prefix.
 *
 * @param where names the message in warnings, e.g. `message 3`.
 */
export function toAnthropicContentBlocks(
  content: MessageContent | undefined,
  where: string,
  warnings: ProviderWarning[],
): AnthropicPlainBlock[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) {
    warnings.push({
      type: 'other',
      feature: 'content',
      details: `${where}: object content is not a content list; sent as its JSON text`,
    });
    return [{ type: 'text', text: JSON.stringify(content) }];
  }
  const blocks: AnthropicPlainBlock[] = [];
  content.forEach((part: unknown, partIndex) => {
    const block = toAnthropicBlock(part, `${where}, part ${partIndex}`, warnings);
    const marker = isPlainObject(part) ? readCacheControl(part.cache_control) : undefined;
    if (block) {
      // A pass-through block may carry a raw marker: only a valid one survives.
      delete block.cache_control;
      if (marker) block.cache_control = marker;
      blocks.push(block);
    } else if (marker) {
      const previous = blocks.at(-1);
      if (previous) previous.cache_control = marker;
    }
  });
  return blocks;
}

function toAnthropicBlock(
  part: unknown,
  where: string,
  warnings: ProviderWarning[],
): AnthropicPlainBlock | null {
  if (typeof part === 'string') return part === '' ? null : { type: 'text', text: part };
  if (!isPlainObject(part)) {
    warnings.push({ type: 'dropped', feature: 'content', details: `${where}: not a content part` });
    return null;
  }
  const type = typeof part.type === 'string' ? part.type : '';
  if (type === 'text' || type === 'input_text' || type === 'output_text') {
    const text = typeof part.text === 'string' ? part.text : '';
    return text === '' ? null : ({ type: 'text', text } satisfies AnthropicTextBlock);
  }
  if (type === 'image_url' || type === 'input_image') {
    const url = imageUrlOf(part);
    return url === null
      ? unsupported(where, 'image', 'image part without a URL', warnings)
      : imageBlock(url, where, warnings);
  }
  if (type === 'image' && isPlainObject(part.source)) {
    return { ...stripInProcessKeys(part), type: 'image' } as AnthropicImageBlock;
  }
  if (PASS_THROUGH_TYPES.has(type)) return stripInProcessKeys(part) as AnthropicPassThroughBlock;
  return unsupported(
    where,
    type || 'content',
    `part type "${type || 'unknown'}" has no Anthropic form`,
    warnings,
  );
}

function imageUrlOf(part: Record<string, unknown>): string | null {
  const imageUrl = part.image_url;
  if (typeof imageUrl === 'string') return imageUrl;
  if (isPlainObject(imageUrl) && typeof imageUrl.url === 'string') return imageUrl.url;
  return null;
}

function imageBlock(url: string, where: string, warnings: ProviderWarning[]): AnthropicImageBlock | null {
  const dataUrl = BASE64_DATA_URL.exec(url);
  if (dataUrl)
    return { type: 'image', source: { type: 'base64', media_type: dataUrl[1]!, data: dataUrl[2]! } };
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  return unsupported(where, 'image', 'only base64 data URLs and http(s) URLs can be sent', warnings);
}

function unsupported(where: string, feature: string, why: string, warnings: ProviderWarning[]): null {
  warnings.push({ type: 'unsupported', feature, details: `${where}: ${why}; dropped` });
  return null;
}
