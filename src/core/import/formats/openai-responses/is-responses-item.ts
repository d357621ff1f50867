import { isPlainObject } from '../../../shared/safe-parse-json.ts';
import { RESPONSES_ITEM_TYPES } from '../../responses-item-types.ts';

/** Item types only a Responses list holds, besides the conversation items Codex shares. */
const RESPONSES_ONLY_ITEM_TYPES = new Set(['compaction', 'item_reference', 'image_generation_call']);
const RESPONSES_PART_TYPES = new Set(['input_text', 'output_text', 'input_image', 'input_file', 'refusal']);

/**
 * Whether an object is a Responses item: a known item `type`, or an easy input message
 * (`{role, content}` without a type) whose content parts are Responses parts.
 */
export function isResponsesItem(item: Record<string, unknown>): boolean {
  if (typeof item.type === 'string') {
    return RESPONSES_ITEM_TYPES.has(item.type) || RESPONSES_ONLY_ITEM_TYPES.has(item.type);
  }
  if (typeof item.role !== 'string' || !Array.isArray(item.content)) return false;
  return item.content.some(
    (part) => isPlainObject(part) && typeof part.type === 'string' && RESPONSES_PART_TYPES.has(part.type),
  );
}
