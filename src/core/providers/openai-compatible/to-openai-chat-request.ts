import { isPlainObject } from '../../shared/safe-parse-json.ts';
import type { ContentPart, Message } from '../../transcript/message.ts';
import type { ToolSchema } from '../../transcript/transcript.ts';
import type { ProviderWarning } from '../provider-warning.ts';
import type { OpenAiChatRequestBody, OpenAiToolDefinition } from './openai-chat-wire-types.ts';

export interface OpenAiChatRequestOptions {
  model: string;
  maxTokens?: number;
  /** OpenAI's reasoning models take `max_completion_tokens`; everything else `max_tokens`. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Sent as a leading system message. */
  systemPrompt?: string;
  tools?: ToolSchema[];
  /** `'none'`: the tools stay defined but the model may not call one. Ignored without tools. */
  toolChoice?: 'none';
  stream: boolean;
  /**
   * True when `applyCacheControl` marked the messages for this request (OpenRouter + Claude:
   * envelope markers on content parts). False strips every `cache_control`, so markers stored
   * in a transcript are never sent by accident.
   */
  cacheMarkersApplied: boolean;
}

export interface OpenAiChatRequest {
  body: OpenAiChatRequestBody;
  warnings: ProviderWarning[];
}

/**
 * Message keys a Chat Completions server may receive. Everything else, the `_` in-process flags
 * first, but also Hermes sidecars such as `tool_name` or `api_content`, stays home: strict
 * servers answer unknown keys with a 400. `reasoning_details` is OpenRouter's way to replay
 * reasoning and is ignored elsewhere.
 */
const WIRE_MESSAGE_KEYS: ReadonlySet<string> = new Set([
  'role',
  'content',
  'name',
  'tool_calls',
  'tool_call_id',
  'refusal',
  'reasoning_details',
  'cache_control',
]);

/**
 * The internal messages as a Chat Completions body. The internal model already is this API's
 * shape, so the work is subtraction: in-process keys out, markers kept only when applied.
 *
 * @example
 * toOpenAiChatRequest([{ role: 'user', content: 'hi', _db_persisted: true }], { model, stream: true, cacheMarkersApplied: false })
 * // body: { model, messages: [{ role: 'user', content: 'hi' }], stream: true, stream_options: { include_usage: true } }
 */
export function toOpenAiChatRequest(
  messages: Message[],
  options: OpenAiChatRequestOptions,
): OpenAiChatRequest {
  const warnings: ProviderWarning[] = [];
  const wireMessages: Message[] = [];
  if (options.systemPrompt) wireMessages.push({ role: 'system', content: options.systemPrompt });
  for (const message of messages) wireMessages.push(toWireMessage(message, options.cacheMarkersApplied));

  const body: OpenAiChatRequestBody = {
    model: options.model,
    messages: wireMessages,
    stream: options.stream,
  };
  if (options.maxTokens !== undefined) body[options.maxTokensField ?? 'max_tokens'] = options.maxTokens;
  if (options.tools && options.tools.length > 0) {
    body.tools = options.tools.map((tool, index) => toToolDefinition(tool, index, warnings));
    if (options.toolChoice === 'none') body.tool_choice = 'none';
  }
  if (options.stream) body.stream_options = { include_usage: true };
  return { body, warnings };
}

function toWireMessage(message: Message, keepMarkers: boolean): Message {
  const wire: Message = { role: message.role };
  for (const [key, value] of Object.entries(message)) {
    if (!WIRE_MESSAGE_KEYS.has(key) || (key === 'cache_control' && !keepMarkers)) continue;
    wire[key] = value;
  }
  if (Array.isArray(message.content)) {
    wire.content = message.content.map((part) =>
      isPlainObject(part) ? toWirePart(part, keepMarkers) : part,
    );
  }
  if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
    wire.tool_calls = message.tool_calls.map((call) => ({
      id: call.id,
      type: 'function' as const,
      function: { name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' },
    }));
  } else {
    // An empty tool_calls array is rejected by OpenAI ("empty array"), so the key goes.
    delete wire.tool_calls;
  }
  return wire;
}

function toWirePart(part: Record<string, unknown>, keepMarkers: boolean): ContentPart {
  const wire: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(part)) {
    if (key.startsWith('_') || (key === 'cache_control' && !keepMarkers)) continue;
    wire[key] = value;
  }
  return wire as ContentPart;
}

/** OpenAI-shaped tools pass through; Anthropic-shaped ones (`input_schema`) are rewrapped. */
function toToolDefinition(
  tool: ToolSchema,
  index: number,
  warnings: ProviderWarning[],
): OpenAiToolDefinition {
  if (tool.type === 'function' && isPlainObject(tool.function)) return tool as OpenAiToolDefinition;
  const name = typeof tool.name === 'string' ? tool.name : `tool_${index}`;
  const parameters = isPlainObject(tool.input_schema)
    ? tool.input_schema
    : isPlainObject(tool.parameters)
      ? tool.parameters
      : null;
  if (parameters === null) {
    warnings.push({
      type: 'other',
      feature: 'tools',
      details: `tool ${index} (${name}): no parameter schema; sent as an empty object schema`,
    });
  }
  return {
    type: 'function',
    function: {
      name,
      ...(typeof tool.description === 'string' ? { description: tool.description } : {}),
      parameters: parameters ?? { type: 'object', properties: {} },
    },
  };
}
