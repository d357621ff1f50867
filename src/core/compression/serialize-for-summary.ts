/**
 * The text block the summariser reads (Hermes `_serialize_for_summary`): one labelled entry
 * per message, joined by blank lines. Everything is redacted first; long bodies keep their
 * head and tail. Vectors: conformance/hermes/summary_serialization.json.
 */
import type { Preset } from '../presets/preset.ts';
import type { Message } from '../transcript/message.ts';
import { pythonRepr, pythonStr } from '../tokens/python-repr.ts';
import { pythonLengthExceeds, pythonSlice } from '../tokens/python-length.ts';
import { redactCompactionText, redactSensitiveText } from './redact-sensitive-text.ts';
import { stripThinkBlocks } from './strip-think-blocks.ts';

/** Per-message body limits: the summariser's own window is the budget here. */
export const SUMMARY_CONTENT_MAX_CHARS = 6000;
export const SUMMARY_CONTENT_HEAD_CHARS = 4000;
export const SUMMARY_CONTENT_TAIL_CHARS = 1500;
export const SUMMARY_TOOL_ARGS_MAX_CHARS = 1500;
export const SUMMARY_TOOL_ARGS_HEAD_CHARS = 1200;

const IMAGE_PART_TYPES = new Set(['image', 'image_url', 'input_image']);
/** MEDIA delivery directives would be re-emitted as live directives if a summary kept them. */
const MEDIA_DIRECTIVE_RE = /MEDIA:\S+/g;

function truncateBody(content: string): string {
  if (!pythonLengthExceeds(content, SUMMARY_CONTENT_MAX_CHARS)) {
    return content;
  }
  return (
    pythonSlice(content, 0, SUMMARY_CONTENT_HEAD_CHARS) +
    '\n...[truncated]...\n' +
    pythonSlice(content, -SUMMARY_CONTENT_TAIL_CHARS)
  );
}

/** An image part as a short label: a reusable http(s) URL survives, a data URL does not. */
export function imagePartLabel(part: Record<string, unknown>): string {
  const imageUrl = part.image_url;
  let url = '';
  if (imageUrl && typeof imageUrl === 'object' && !Array.isArray(imageUrl)) {
    const nested = (imageUrl as { url?: unknown }).url;
    url = nested ? pythonStr(nested) : '';
  } else if (typeof imageUrl === 'string') url = imageUrl;
  else if (typeof part.url === 'string') url = part.url;
  return url.startsWith('http://') || url.startsWith('https://') ? `[image: ${url}]` : '[image]';
}

/** 2026-07 flattens part lists to text; unknown parts leave a `[type]` marker behind. */
function flattenParts(parts: readonly unknown[]): string {
  const texts: string[] = [];
  for (const part of parts) {
    if (typeof part === 'string') texts.push(part);
    else if (part && typeof part === 'object' && !Array.isArray(part)) {
      const record = part as Record<string, unknown>;
      const type = record.type;
      if (type === 'text') texts.push(typeof record.text === 'string' ? record.text : '');
      else if (typeof type === 'string' && IMAGE_PART_TYPES.has(type)) texts.push(imagePartLabel(record));
      else texts.push(`[${type ? pythonStr(type) : 'attachment'}]`);
    }
  }
  return texts.join('\n');
}

function bodyText(message: Message, preset: Preset): string {
  const content = message.content;
  if (preset.summary.serialization === 'raw') {
    // 2026-04 handed the raw value to the redactor, which renders non-strings with str().
    if (content === null || content === undefined || content === '') return '';
    const text = typeof content === 'string' ? content : pythonRepr(content);
    return redactSensitiveText(text);
  }
  let text: string;
  if (Array.isArray(content)) text = flattenParts(content);
  else if (typeof content === 'string') text = content;
  else if (content === null || content === undefined) text = '';
  else text = pythonRepr(content);
  text = redactCompactionText(text);
  // A plain substring check first: the regex pass is only needed when a directive is present.
  if (text.includes('MEDIA:')) text = text.replace(MEDIA_DIRECTIVE_RE, '[media attachment]');
  if (message.role === 'assistant' && text) text = stripThinkBlocks(text);
  return text;
}

function toolCallLines(message: Message, preset: Preset): string[] {
  const lines: string[] = [];
  for (const call of message.tool_calls ?? []) {
    if (!call || typeof call !== 'object' || Array.isArray(call)) {
      lines.push('  ?(...)');
      continue;
    }
    const fn = (call.function ?? {}) as { name?: unknown; arguments?: unknown };
    const name = fn.name === undefined ? '?' : pythonStr(fn.name);
    const rawArguments = fn.arguments === undefined ? '' : pythonStr(fn.arguments);
    const raw = preset.summary.serialization === 'raw';
    let args = raw ? redactSensitiveText(rawArguments) : redactCompactionText(rawArguments);
    if (pythonLengthExceeds(args, SUMMARY_TOOL_ARGS_MAX_CHARS)) {
      args = pythonSlice(args, 0, SUMMARY_TOOL_ARGS_HEAD_CHARS) + '...';
    }
    lines.push(`  ${name}(${args})`);
  }
  return lines;
}

/** One message as the summariser sees it. */
export function serializeMessageForSummary(message: Message, preset: Preset): string {
  const role = typeof message.role === 'string' ? message.role : 'unknown';
  let content = truncateBody(bodyText(message, preset));
  if (role === 'tool') {
    const id = message.tool_call_id === undefined ? '' : pythonStr(message.tool_call_id);
    return `[TOOL RESULT ${id}]: ${content}`;
  }
  if (role === 'assistant') {
    const lines =
      Array.isArray(message.tool_calls) && message.tool_calls.length > 0
        ? toolCallLines(message, preset)
        : [];
    if (lines.length > 0) content += '\n[Tool calls:\n' + lines.join('\n') + '\n]';
    return `[ASSISTANT]: ${content}`;
  }
  return `[${role.toUpperCase()}]: ${content}`;
}

/**
 * Each message as the summariser reads it, by message identity, under one preset: messages are
 * immutable, so a transcript's compactions (and the strategies compared on it) serialise and
 * redact each message once.
 */
export type SummaryTextCache = WeakMap<Message, string>;

/** The whole block of turns for the summariser prompt. */
export function serializeForSummary(
  turns: readonly Message[],
  preset: Preset,
  cache?: SummaryTextCache,
): string {
  const parts = new Array<string>(turns.length);
  for (let i = 0; i < turns.length; i++) {
    const message = turns[i]!;
    let text = cache?.get(message);
    if (text === undefined) {
      text = serializeMessageForSummary(message, preset);
      cache?.set(message, text);
    }
    parts[i] = text;
  }
  return parts.join('\n\n');
}
