import type { ContentPart, MessageContent, ToolCall } from '../transcript/message.ts';
import { isPlainObject } from '../shared/safe-parse-json.ts';
import type { ImportContext } from './import-context.ts';
import { childPath, type SourceLocation } from './import-warning.ts';
import { imagePart, partsToContent, textPart } from './parts-to-content.ts';
import { stringifyJsonValue } from './stringify-json-value.ts';
import { toolArgumentsJson } from './tool-arguments-json.ts';

/** A tool result found in Anthropic content, before it becomes a `role:'tool'` message. */
export interface ToolResultDraft {
  toolCallId: string | undefined;
  content: MessageContent;
  isError: boolean;
  at: SourceLocation;
}

/** Anthropic content blocks sorted into what the OpenAI-shaped model keeps of them. */
export interface ConvertedAnthropicContent {
  /** Text and image parts in their original order. */
  parts: ContentPart[];
  /** Thinking text; signatures are dropped (they are opaque and mean nothing outside the API). */
  reasoning: string[];
  toolCalls: ToolCall[];
  toolResults: ToolResultDraft[];
  /** Text of `compaction` blocks (server-side compaction summaries). */
  compactions: string[];
}

/** Server-side tool results that arrive inside the assistant message that made the call. */
const SERVER_TOOL_RESULT_TYPES = new Set([
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'mcp_tool_result',
]);

const TOOL_CALL_TYPES = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

/**
 * Converts Anthropic Messages content (a string or content blocks) for one message.
 * `generatedIdPrefix` names calls that arrive without an id, e.g. `toolu_line12`.
 *
 * @see https://docs.anthropic.com/en/api/messages
 */
export function convertAnthropicContent(
  content: unknown,
  at: SourceLocation,
  context: ImportContext,
  generatedIdPrefix: string,
): ConvertedAnthropicContent {
  const converted: ConvertedAnthropicContent = {
    parts: [],
    reasoning: [],
    toolCalls: [],
    toolResults: [],
    compactions: [],
  };
  if (typeof content === 'string') {
    if (content.length > 0) converted.parts.push(textPart(content));
    return converted;
  }
  if (!Array.isArray(content)) {
    if (content !== undefined && content !== null)
      context.skipPart(at, 'has content that is neither text nor blocks');
    return converted;
  }
  for (let index = 0; index < content.length; index += 1) {
    const block: unknown = content[index];
    const blockAt: SourceLocation = { ...at, path: childPath(at.path, index) };
    if (!isPlainObject(block)) {
      context.skipPart(blockAt, 'is not a content block');
      continue;
    }
    convertBlock(block, blockAt, context, generatedIdPrefix, converted);
  }
  return converted;
}

function convertBlock(
  block: Record<string, unknown>,
  at: SourceLocation,
  context: ImportContext,
  generatedIdPrefix: string,
  converted: ConvertedAnthropicContent,
): void {
  const type = block.type;
  if (type === 'text') {
    if (typeof block.text === 'string') converted.parts.push(textPart(block.text));
    else context.skipPart(at, 'is a text block without text');
    return;
  }
  if (type === 'image') {
    const url = imageSourceUrl(block.source);
    if (url) converted.parts.push(imagePart(url));
    else context.skipPart(at, 'is an image without a readable source');
    return;
  }
  if (type === 'document') {
    const source = block.source;
    if (isPlainObject(source) && source.type === 'text' && typeof source.data === 'string') {
      converted.parts.push(textPart(source.data));
    } else context.skipPart(at, 'is a document that is not plain text; dropped');
    return;
  }
  if (type === 'thinking') {
    if (typeof block.thinking === 'string' && block.thinking.length > 0)
      converted.reasoning.push(block.thinking);
    return;
  }
  if (type === 'redacted_thinking') {
    context.skipPart(at, 'is redacted thinking (encrypted); dropped');
    return;
  }
  if (typeof type === 'string' && TOOL_CALL_TYPES.has(type)) {
    converted.toolCalls.push(
      toToolCall(block, at, context, `${generatedIdPrefix}_${converted.toolCalls.length}`),
    );
    return;
  }
  if (type === 'tool_result' || (typeof type === 'string' && SERVER_TOOL_RESULT_TYPES.has(type))) {
    const toolCallId =
      typeof block.tool_use_id === 'string' && block.tool_use_id ? block.tool_use_id : undefined;
    converted.toolResults.push({
      toolCallId,
      content: flattenToolResultContent(block.content, at, context),
      isError: block.is_error === true || isErrorPayload(block.content),
      at,
    });
    return;
  }
  if (type === 'compaction') {
    converted.compactions.push(typeof block.content === 'string' ? block.content : '');
    return;
  }
  context.skipPart(at, `has unknown block type ${JSON.stringify(String(type))}`);
}

function toToolCall(
  block: Record<string, unknown>,
  at: SourceLocation,
  context: ImportContext,
  generatedId: string,
): ToolCall {
  let id = typeof block.id === 'string' && block.id ? block.id : '';
  if (!id) {
    id = generatedId;
    context.repaired(at, `is a tool call without an id; named "${id}"`);
  }
  const name = typeof block.name === 'string' && block.name ? block.name : 'unknown';
  if (name === 'unknown') context.repaired(at, 'is a tool call without a name; named "unknown"');
  const argumentsJson = toolArgumentsJson(
    block.input ?? {},
    { ...at, path: childPath(at.path, 'input') },
    context,
  );
  return { id, type: 'function', function: { name, arguments: argumentsJson } };
}

function imageSourceUrl(source: unknown): string | undefined {
  if (!isPlainObject(source)) return undefined;
  if (source.type === 'base64' && typeof source.data === 'string') {
    const mediaType = typeof source.media_type === 'string' ? source.media_type : 'image/png';
    return `data:${mediaType};base64,${source.data}`;
  }
  if (source.type === 'url' && typeof source.url === 'string') return source.url;
  return undefined;
}

function isErrorPayload(content: unknown): boolean {
  return isPlainObject(content) && typeof content.type === 'string' && content.type.endsWith('_error');
}

/**
 * A tool result's content as the tool message carries it: text blocks joined into one string,
 * images kept as parts after it, server-tool payloads (search results, code output) as text.
 */
export function flattenToolResultContent(
  content: unknown,
  at: SourceLocation,
  context: ImportContext,
): MessageContent {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (isPlainObject(content)) return serverResultText(content);
  // A parsed number or boolean: objects and arrays are handled around it.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  if (!Array.isArray(content)) return String(content);
  const texts: string[] = [];
  const images: ContentPart[] = [];
  for (let index = 0; index < content.length; index += 1) {
    const item: unknown = content[index];
    if (typeof item === 'string') {
      texts.push(item);
      continue;
    }
    if (!isPlainObject(item)) {
      context.skipPart(
        { ...at, path: childPath(childPath(at.path, 'content'), index) },
        'is not a content block',
      );
      continue;
    }
    if (item.type === 'image') {
      const url = imageSourceUrl(item.source);
      if (url) images.push(imagePart(url));
      continue;
    }
    if (typeof item.text === 'string') {
      texts.push(item.text);
      continue;
    }
    texts.push(serverResultText(item));
  }
  const text = texts.join('\n');
  if (images.length === 0) return text;
  return partsToContent([...(text ? [textPart(text)] : []), ...images]);
}

/** Readable text for a server tool payload: search hits as `title — url`, code output as its streams. */
function serverResultText(payload: Record<string, unknown>): string {
  if (payload.type === 'web_search_result') {
    const title = typeof payload.title === 'string' ? payload.title : '';
    const url = typeof payload.url === 'string' ? payload.url : '';
    return [title, url].filter(Boolean).join(' — ');
  }
  if (typeof payload.stdout === 'string' || typeof payload.stderr === 'string') {
    const lines: string[] = [];
    if (typeof payload.stdout === 'string' && payload.stdout) lines.push(payload.stdout);
    if (typeof payload.stderr === 'string' && payload.stderr) lines.push(`stderr: ${payload.stderr}`);
    if (typeof payload.return_code === 'number') lines.push(`return code: ${payload.return_code}`);
    return lines.join('\n');
  }
  if (typeof payload.error_code === 'string') return `error: ${payload.error_code}`;
  return stringifyJsonValue(payload) ?? '';
}
