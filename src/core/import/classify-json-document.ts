import { isPlainObject, safeParseJson } from '../shared/safe-parse-json.ts';
import { classifyJsonlRecord } from './classify-jsonl-record.ts';
import { detection, type FormatDetection } from './format-detection.ts';

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

export const INTERNAL_FORMAT_TAG = 'context-lab-transcript';

/** Which format a whole JSON document (object or array) is, if its shape says so. */
export function classifyJsonDocument(value: unknown): FormatDetection | null {
  return classifyDocument(value, true);
}

function classifyDocument(value: unknown, unwrapBody: boolean): FormatDetection | null {
  if (Array.isArray(value)) return classifyArray(value);
  if (!isPlainObject(value)) return null;
  if (value.format === INTERNAL_FORMAT_TAG) {
    return detection('internal', 1, 'the document says "format":"context-lab-transcript"');
  }
  // One level only: a capture of a capture is not a transcript.
  const body = unwrapBody ? unwrapCapturedBody(value) : undefined;
  if (body) {
    const inner = classifyDocument(body, false);
    if (inner) return { ...inner, reason: `${inner.reason} (captured request: payload under "body")` };
  }
  if (value.type === 'message' && value.role === 'assistant' && Array.isArray(value.content)) {
    return detection('anthropic-messages', 0.95, 'a Messages API response ("type":"message")');
  }
  if (Array.isArray(value.choices)) {
    return detection('openai-chat', 0.95, 'a chat.completion response with "choices"');
  }
  if (Array.isArray(value.conversations)) {
    return detection('sharegpt', 0.95, 'a "conversations" array of {from, value} turns');
  }
  if (Array.isArray(value.messages)) return classifyMessagesObject(value, value.messages);
  return classifyJsonlRecord(value);
}

/** The request payload of an HTTP capture `{method, path, headers, body}`, when there is one. */
export function unwrapCapturedBody(value: Record<string, unknown>): Record<string, unknown> | undefined {
  if (Array.isArray(value.messages)) return undefined;
  let body = value.body;
  if (typeof body === 'string') {
    const parsed = safeParseJson(body);
    body = parsed.ok ? parsed.value : undefined;
  }
  return isPlainObject(body) && (Array.isArray(body.messages) || body.type === 'message') ? body : undefined;
}

function classifyMessagesObject(value: Record<string, unknown>, messages: unknown[]): FormatDetection {
  if (
    'session_id' in value ||
    ('system_prompt' in value && ('session_start' in value || 'platform' in value))
  ) {
    return detection('hermes-snapshot', 0.95, 'a Hermes session object with "session_id" and "messages"');
  }
  if (
    typeof value.id === 'string' &&
    ('source' in value || 'started_at' in value || 'parent_session_id' in value)
  ) {
    return detection('hermes-session-jsonl', 0.9, 'a Hermes session row with nested "messages"');
  }
  if (typeof value.system === 'string' || Array.isArray(value.system)) {
    return detection('anthropic-messages', 0.9, 'a Messages request with a top-level "system"');
  }
  if (hasAnthropicBlocks(messages)) {
    return detection(
      'anthropic-messages',
      0.85,
      'messages carry Anthropic content blocks (tool_use, tool_result)',
    );
  }
  return detection('openai-chat', 0.9, 'an object with a "messages" array of {role, content}');
}

function classifyArray(items: unknown[]): FormatDetection | null {
  const first = items.find(isPlainObject);
  if (!first) return null;
  if (Array.isArray(first.conversations)) {
    return detection('sharegpt', 0.9, 'an array of {"conversations": …} records');
  }
  if (typeof first.from === 'string' && 'value' in first) {
    return detection('sharegpt', 0.9, 'an array of {from, value} turns');
  }
  if (typeof first.role === 'string') {
    if (hasAnthropicBlocks(items)) {
      return detection('anthropic-messages', 0.8, 'an array of messages with Anthropic content blocks');
    }
    return detection('openai-chat', 0.9, 'a bare array of {role, content} messages');
  }
  const asRecord = classifyJsonlRecord(first);
  return asRecord ? { ...asRecord, confidence: asRecord.confidence * 0.9 } : null;
}

function hasAnthropicBlocks(messages: unknown[]): boolean {
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
