import type { ContentPart, Message, MessageContent, ToolCall } from '../transcript/message.ts';
import { isPlainObject } from '../shared/safe-parse-json.ts';
import type { ImportContext } from './import-context.ts';
import { childPath, type SourceLocation } from './import-warning.ts';
import { isWithinDepth } from './is-within-depth.ts';
import { imagePart, partsToContent, textPart } from './parts-to-content.ts';
import { stringifyJsonValue } from './stringify-json-value.ts';
import { toolArgumentsJson } from './tool-arguments-json.ts';

export const CHAT_ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);

/** The keys of an OpenAI chat message that a model reads; everything else is bookkeeping. */
const CHAT_KEYS = new Set(['role', 'content', 'tool_calls', 'tool_call_id', 'name', 'reasoning']);

export interface NormalizeChatMessageOptions {
  /**
   * Keys kept besides the chat keys: `'all'` for sources whose dicts are the agent's own
   * messages (Hermes), or a set for sources that carry provider and logging fields.
   */
  extraKeys: 'all' | ReadonlySet<string>;
  /** Prefix for ids given to calls that have none, e.g. `call_m12`. */
  generatedIdPrefix: string;
}

/**
 * One OpenAI-shaped chat message, validated field by field. Returns undefined (with a warning)
 * when the value is not a message with a known role.
 */
export function normalizeChatMessage(
  value: unknown,
  at: SourceLocation,
  context: ImportContext,
  options: NormalizeChatMessageOptions,
): Message | undefined {
  if (!isPlainObject(value)) {
    context.skipLine(at, 'is not a message object');
    return undefined;
  }
  const role = value.role;
  if (typeof role !== 'string') {
    context.skipLine(at, 'is a message without a role');
    return undefined;
  }
  if (!CHAT_ROLES.has(role)) {
    context.skipLine(at, `has unknown role ${JSON.stringify(role)}`);
    return undefined;
  }
  // Content as the source wrote it: null stays null and an absent key stays absent, since
  // Hermes measures a message by the repr of its dict (`len(str(msg))`).
  const message: Message = { role };
  if ('content' in value) message.content = normalizeChatContent(value.content, at, context);
  const keys =
    options.extraKeys === 'all' ? Object.keys(value).filter((key) => !CHAT_KEYS.has(key)) : options.extraKeys;
  for (const key of keys) {
    const field = value[key];
    if (field === null || field === undefined) continue;
    if (isWithinDepth(field)) message[key] = field;
    else context.skipPart({ ...at, path: childPath(at.path, key) }, 'nests too deeply to keep; dropped');
  }
  if (typeof value.name === 'string') message.name = value.name;
  const reasoning = typeof value.reasoning === 'string' ? value.reasoning : value.reasoning_content;
  if (typeof reasoning === 'string' && reasoning.length > 0) message.reasoning = reasoning;
  if (role === 'tool' || role === 'function') {
    if (typeof value.tool_call_id === 'string') message.tool_call_id = value.tool_call_id;
  }
  if (role === 'assistant') {
    const calls = normalizeToolCalls(
      value.tool_calls,
      at,
      context,
      options.generatedIdPrefix,
      options.extraKeys === 'all',
    );
    if (isPlainObject(value.function_call) && calls.length === 0) {
      // The pre-2023 single `function_call` field: one call, named so the `function` reply can find it.
      calls.push(
        ...normalizeToolCalls([{ function: value.function_call }], at, context, options.generatedIdPrefix),
      );
    }
    if (calls.length > 0) message.tool_calls = calls;
    // A refusal is what the model said instead of content; it reads as the message's text.
    if (
      typeof value.refusal === 'string' &&
      value.refusal &&
      (message.content === null || message.content === undefined)
    )
      message.content = value.refusal;
  }
  return inSourceKeyOrder(message, value);
}

/**
 * The message with its keys in the order the source wrote them (keys it added last), so an
 * unchanged message exports byte for byte as it came in.
 */
function inSourceKeyOrder(message: Message, source: Record<string, unknown>): Message {
  const ordered: Record<string, unknown> = {};
  for (const key of Object.keys(source)) if (key in message) ordered[key] = message[key];
  for (const key of Object.keys(message)) if (!(key in ordered)) ordered[key] = message[key];
  return ordered as Message;
}

/** Chat content: strings and null as they are, part lists validated, a lone text part as a string. */
export function normalizeChatContent(
  content: unknown,
  at: SourceLocation,
  context: ImportContext,
): MessageContent {
  if (content === undefined || content === null) return null;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) {
    const text = stringifyJsonValue(content);
    context.repaired(
      { ...at, path: childPath(at.path, 'content') },
      'is an object, not text or parts; kept as JSON text',
    );
    return text ?? '';
  }
  const parts: ContentPart[] = [];
  content.forEach((part: unknown, index) => {
    const partAt = { ...at, path: childPath(childPath(at.path, 'content'), index) };
    if (typeof part === 'string') {
      parts.push(textPart(part));
      return;
    }
    if (!isPlainObject(part) || typeof part.type !== 'string') {
      context.skipPart(partAt, 'is not a content part');
      return;
    }
    if (
      (part.type === 'text' || part.type === 'input_text' || part.type === 'output_text') &&
      typeof part.text === 'string'
    ) {
      parts.push(textPart(part.text));
      return;
    }
    if (part.type === 'image_url') {
      const url = isPlainObject(part.image_url) ? part.image_url.url : part.image_url;
      if (typeof url === 'string') {
        const image = imagePart(url);
        if (isPlainObject(part.image_url) && typeof part.image_url.detail === 'string') {
          image.image_url.detail = part.image_url.detail;
        }
        parts.push(image);
      } else context.skipPart(partAt, 'is an image part without a url');
      return;
    }
    // Audio, files and future part types are kept verbatim: the model saw them.
    if (isWithinDepth(part)) parts.push({ ...part, type: part.type });
    else context.skipPart(partAt, 'nests too deeply to keep; dropped');
  });
  return partsToContent(parts);
}

/** Validated `tool_calls`: ids kept (or generated with a warning), arguments as a JSON string. */
export function normalizeToolCalls(
  value: unknown,
  at: SourceLocation,
  context: ImportContext,
  generatedIdPrefix: string,
  keepExtraKeys = false,
): ToolCall[] {
  if (value === undefined || value === null) return [];
  const callsAt = { ...at, path: childPath(at.path, 'tool_calls') };
  if (!Array.isArray(value)) {
    context.skipPart(callsAt, 'is not an array; calls dropped');
    return [];
  }
  const calls: ToolCall[] = [];
  value.forEach((raw: unknown, index) => {
    const callAt = { ...at, path: childPath(callsAt.path, index) };
    if (!isPlainObject(raw)) {
      context.skipPart(callAt, 'is not a tool call object');
      return;
    }
    const fn = isPlainObject(raw.function) ? raw.function : {};
    let id =
      typeof raw.id === 'string' && raw.id ? raw.id : typeof raw.call_id === 'string' ? raw.call_id : '';
    if (!id) {
      id = `${generatedIdPrefix}_${index}`;
      context.repaired(callAt, `is a tool call without an id; named "${id}"`);
    }
    const name =
      typeof fn.name === 'string' && fn.name ? fn.name : typeof raw.name === 'string' ? raw.name : '';
    if (!name) context.repaired(callAt, 'is a tool call without a function name; named "unknown"');
    const argumentsPath = isPlainObject(raw.function)
      ? childPath(childPath(callAt.path, 'function'), 'arguments')
      : childPath(callAt.path, 'arguments');
    const argumentsJson = toolArgumentsJson(
      fn.arguments ?? raw.arguments,
      { ...at, path: argumentsPath },
      context,
    );
    const call: ToolCall = {
      id,
      type: 'function',
      function: { name: name || 'unknown', arguments: argumentsJson },
    };
    if (typeof raw.call_id === 'string' && raw.call_id) call.call_id = raw.call_id;
    if (keepExtraKeys) {
      for (const [key, field] of Object.entries(raw)) {
        const isExtra = !(key in call) && key !== 'name' && key !== 'arguments';
        if (!isExtra || field === null || field === undefined) continue;
        if (isWithinDepth(field)) call[key] = field;
        else
          context.skipPart({ ...at, path: childPath(callAt.path, key) }, 'nests too deeply to keep; dropped');
      }
    }
    calls.push(call);
  });
  return calls;
}
