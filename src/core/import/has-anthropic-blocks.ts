import { isPlainObject } from '../shared/safe-parse-json.ts';

/** Enough messages to tell Anthropic blocks from OpenAI parts without walking a huge file. */
const MESSAGES_INSPECTED = 50;

const ANTHROPIC_BLOCK_TYPES = new Set([
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'server_tool_use',
  'web_search_tool_result',
  'compaction',
]);

/** Whether the first messages carry content blocks only the Anthropic Messages API uses. */
export function hasAnthropicBlocks(messages: readonly unknown[]): boolean {
  const inspected = Math.min(messages.length, MESSAGES_INSPECTED);
  for (let index = 0; index < inspected; index += 1) {
    const message = messages[index];
    if (!isPlainObject(message) || !Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (!isPlainObject(block) || typeof block.type !== 'string') continue;
      if (ANTHROPIC_BLOCK_TYPES.has(block.type)) return true;
      if (block.type === 'image' && isPlainObject(block.source)) return true;
    }
  }
  return false;
}

/** The first plain object of an array, which the array detectors judge the whole array by. */
export function firstObject(items: readonly unknown[]): Record<string, unknown> | undefined {
  const inspected = Math.min(items.length, MESSAGES_INSPECTED);
  for (let index = 0; index < inspected; index += 1) {
    const item = items[index];
    if (isPlainObject(item)) return item;
  }
  return undefined;
}
