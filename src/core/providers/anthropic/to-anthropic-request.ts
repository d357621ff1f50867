import { isPlainObject, safeParseJson } from '../../shared/safe-parse-json.ts';
import type { Message, ToolCall } from '../../transcript/message.ts';
import type { ToolSchema } from '../../transcript/transcript.ts';
import type { ProviderWarning } from '../provider-warning.ts';
import type {
  AnthropicContentBlock,
  AnthropicMessageParam,
  AnthropicRedactedThinkingBlock,
  AnthropicRequestBody,
  AnthropicTextBlock,
  AnthropicThinkingBlock,
  AnthropicToolDefinition,
  AnthropicToolResultBlock,
  AnthropicToolUseBlock,
} from './anthropic-wire-types.ts';
import {
  limitAnthropicCacheBreakpoints,
  removeAnthropicCacheControl,
} from './limit-anthropic-cache-breakpoints.ts';
import { readCacheControl, toAnthropicContentBlocks } from './to-anthropic-content-blocks.ts';
import { plural } from '../../shared/plural.ts';

export interface AnthropicRequestOptions {
  model: string;
  /** Required by the Messages API. */
  maxTokens: number;
  /** Sent as the first `system` block, before any system message of the transcript. */
  systemPrompt?: string;
  tools?: ToolSchema[];
  /**
   * `'none'`: the tools stay defined but the model may not call one. A history with tool calls
   * must carry tool definitions (the API refuses `tool_use` / `tool_result` blocks without
   * them), so a request that wants only text sends both. Ignored without tools.
   */
  toolChoice?: 'none';
  stream: boolean;
  /**
   * True when the messages went through `applyCacheControl` for this request: markers are kept
   * (at most 4). False drops every marker, so stale ones stored in a transcript never become
   * breakpoints.
   */
  cacheMarkersApplied: boolean;
}

export interface AnthropicRequest {
  body: AnthropicRequestBody;
  warnings: ProviderWarning[];
}

/** Tool-use ids must match `^[a-zA-Z0-9_-]+$`; imported ids (`functions.read:0`) may not. */
const INVALID_TOOL_ID_CHARACTERS = /[^a-zA-Z0-9_-]/g;

/**
 * The internal (OpenAI-shaped, possibly cache-marked) messages as an Anthropic Messages body.
 *
 * - system messages become `system` text blocks, keeping their markers;
 * - consecutive tool messages become one user message of `tool_result` blocks (a tool message's
 *   top-level marker, Hermes' native layout, goes on its block);
 * - assistant `tool_calls` become `tool_use` blocks with parsed arguments;
 * - reasoning is replayed only as signed thinking blocks, otherwise dropped;
 * - consecutive same-role messages are merged, because the API requires alternation;
 * - `_`-prefixed keys never reach the body; at most 4 cache breakpoints survive.
 *
 * @example
 * toAnthropicRequest([{ role: 'user', content: 'hi' }], { model, maxTokens: 1024, stream: true, cacheMarkersApplied: false })
 * // body.messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]
 */
export function toAnthropicRequest(messages: Message[], options: AnthropicRequestOptions): AnthropicRequest {
  const warnings: ProviderWarning[] = [];
  const system: AnthropicTextBlock[] = [];
  const turns: AnthropicMessageParam[] = [];
  let unsignedReasoningCount = 0;

  if (options.systemPrompt) system.push({ type: 'text', text: options.systemPrompt });

  messages.forEach((message, index) => {
    const where = `message ${index}`;
    const marker = readCacheControl(message.cache_control);
    switch (message.role) {
      case 'system':
      case 'developer': {
        if (turns.length > 0) {
          warnings.push({
            type: 'other',
            feature: 'system',
            details: `${where}: a system message after the conversation started was moved into the system prompt`,
          });
        }
        const blocks = toAnthropicContentBlocks(message.content, where, warnings);
        for (const block of blocks) {
          if (block.type === 'text') system.push(block);
          else
            warnings.push({
              type: 'unsupported',
              feature: block.type,
              details: `${where}: only text can go in the system prompt; dropped`,
            });
        }
        const last = system.at(-1);
        if (marker && last && blocks.length > 0) last.cache_control = marker;
        return;
      }
      case 'user': {
        const blocks = toAnthropicContentBlocks(message.content, where, warnings);
        const last = blocks.at(-1);
        if (marker && last) last.cache_control = marker;
        appendTurn(turns, 'user', blocks);
        return;
      }
      case 'assistant': {
        const reasoning = signedReasoningBlocks(message);
        if (reasoning.length === 0 && hasReasoningText(message)) unsignedReasoningCount += 1;
        const blocks: AnthropicContentBlock[] = [
          ...reasoning,
          ...toAnthropicContentBlocks(message.content, where, warnings),
          ...(message.tool_calls ?? []).map((call, callIndex) =>
            toToolUseBlock(call, `${where}, tool call ${callIndex}`, warnings),
          ),
        ];
        const last = blocks.at(-1);
        if (marker && last && last.type !== 'thinking' && last.type !== 'redacted_thinking')
          last.cache_control = marker;
        if (blocks.length === 0) {
          warnings.push({
            type: 'dropped',
            feature: 'message',
            details: `${where}: empty assistant message dropped`,
          });
          return;
        }
        appendTurn(turns, 'assistant', blocks);
        return;
      }
      case 'tool': {
        const block = toToolResultBlock(message, where, warnings);
        if (marker) block.cache_control = marker;
        appendTurn(turns, 'user', [block]);
        return;
      }
      default:
        warnings.push({
          type: 'unsupported',
          feature: 'role',
          details: `${where}: role "${String(message.role)}" has no Anthropic form; dropped`,
        });
    }
  });

  if (unsignedReasoningCount > 0) {
    warnings.push({
      type: 'dropped',
      feature: 'reasoning',
      details: `reasoning of ${plural(unsignedReasoningCount, 'assistant message')} dropped: only signed thinking can be replayed`,
    });
  }

  const body: AnthropicRequestBody = {
    model: options.model,
    max_tokens: options.maxTokens,
    ...(system.length > 0 ? { system } : {}),
    messages: turns,
    ...(options.tools && options.tools.length > 0
      ? {
          tools: options.tools.map((tool, toolIndex) => toToolDefinition(tool, toolIndex, warnings)),
          ...(options.toolChoice === 'none' ? { tool_choice: { type: 'none' as const } } : {}),
        }
      : {}),
    stream: options.stream,
  };
  if (options.cacheMarkersApplied) warnings.push(...limitAnthropicCacheBreakpoints(body));
  else removeAnthropicCacheControl(body);
  return { body, warnings };
}

/**
 * Adds blocks as a turn, merging into the previous turn of the same role. In a merged user turn
 * the `tool_result` blocks go first, as the API requires after a `tool_use`.
 */
function appendTurn(
  turns: AnthropicMessageParam[],
  role: 'user' | 'assistant',
  blocks: AnthropicContentBlock[],
): void {
  if (blocks.length === 0) return;
  const previous = turns.at(-1);
  if (previous?.role !== role) {
    turns.push({ role, content: blocks });
    return;
  }
  const merged = [...previous.content, ...blocks];
  previous.content =
    role === 'user'
      ? [
          ...merged.filter((block) => block.type === 'tool_result'),
          ...merged.filter((block) => block.type !== 'tool_result'),
        ]
      : merged;
}

export function toAnthropicToolUseId(id: string): string {
  const cleaned = id.replace(INVALID_TOOL_ID_CHARACTERS, '_');
  return cleaned === '' ? 'tool_call' : cleaned;
}

function toToolUseBlock(call: ToolCall, where: string, warnings: ProviderWarning[]): AnthropicToolUseBlock {
  const name = call.function?.name ?? '';
  const argumentsText = typeof call.function?.arguments === 'string' ? call.function.arguments : '';
  let input: Record<string, unknown> = {};
  // An empty string is how many providers spell "no arguments": not worth a warning.
  if (argumentsText.trim() !== '') {
    const parsed = safeParseJson(argumentsText);
    if (parsed.ok && isPlainObject(parsed.value)) input = parsed.value;
    else {
      warnings.push({
        type: 'other',
        feature: 'tool_use.input',
        details: `${where} (${name}): arguments are not a JSON object; sent as {}`,
      });
    }
  }
  return { type: 'tool_use', id: toAnthropicToolUseId(call.id ?? ''), name, input };
}

function toToolResultBlock(
  message: Message,
  where: string,
  warnings: ProviderWarning[],
): AnthropicToolResultBlock {
  const toolUseId = toAnthropicToolUseId(message.tool_call_id ?? '');
  if (typeof message.content === 'string' || message.content === null || message.content === undefined) {
    return { type: 'tool_result', tool_use_id: toolUseId, content: message.content ?? '' };
  }
  const blocks = toAnthropicContentBlocks(message.content, where, warnings);
  const content: Array<Extract<(typeof blocks)[number], { type: 'text' | 'image' }>> = [];
  for (const block of blocks) {
    if (block.type === 'text' || block.type === 'image') content.push(block);
    else
      warnings.push({
        type: 'unsupported',
        feature: block.type,
        details: `${where}: a tool result can hold only text and images; dropped`,
      });
  }
  return { type: 'tool_result', tool_use_id: toolUseId, content };
}

/** Thinking blocks carried in `reasoning_details` with the signature the API needs to accept them back. */
function signedReasoningBlocks(
  message: Message,
): Array<AnthropicThinkingBlock | AnthropicRedactedThinkingBlock> {
  const details = message.reasoning_details;
  if (!Array.isArray(details)) return [];
  const blocks: Array<AnthropicThinkingBlock | AnthropicRedactedThinkingBlock> = [];
  for (const detail of details) {
    if (!isPlainObject(detail)) continue;
    const text =
      typeof detail.thinking === 'string'
        ? detail.thinking
        : typeof detail.text === 'string'
          ? detail.text
          : null;
    if (typeof detail.signature === 'string' && detail.signature !== '' && text !== null) {
      blocks.push({ type: 'thinking', thinking: text, signature: detail.signature });
    } else if (
      (detail.type === 'redacted_thinking' || detail.type === 'reasoning.encrypted') &&
      typeof detail.data === 'string'
    ) {
      blocks.push({ type: 'redacted_thinking', data: detail.data });
    }
  }
  return blocks;
}

function hasReasoningText(message: Message): boolean {
  const reasoning = message.reasoning ?? message.reasoning_content;
  return (
    (typeof reasoning === 'string' && reasoning !== '') ||
    (Array.isArray(message.reasoning_details) && message.reasoning_details.length > 0)
  );
}

/** OpenAI `{type:'function', function:{name, description, parameters}}` or an Anthropic-shaped tool. */
function toToolDefinition(
  tool: ToolSchema,
  toolIndex: number,
  warnings: ProviderWarning[],
): AnthropicToolDefinition {
  const fn = isPlainObject(tool.function) ? tool.function : tool;
  const name = typeof fn.name === 'string' ? fn.name : `tool_${toolIndex}`;
  const schema = isPlainObject(fn.parameters)
    ? fn.parameters
    : isPlainObject(fn.input_schema)
      ? fn.input_schema
      : null;
  if (schema === null) {
    warnings.push({
      type: 'other',
      feature: 'tools',
      details: `tool ${toolIndex} (${name}): no parameter schema; sent as an empty object schema`,
    });
  }
  const marker = readCacheControl(tool.cache_control);
  return {
    name,
    ...(typeof fn.description === 'string' ? { description: fn.description } : {}),
    input_schema: schema ?? { type: 'object', properties: {} },
    ...(marker ? { cache_control: marker } : {}),
  };
}
