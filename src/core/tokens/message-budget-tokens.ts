import type { Preset } from '../presets/preset.ts';
import { assertNever } from '../shared/assert-never.ts';
import { isPlainObject } from '../shared/safe-parse-json.ts';
import type { Message } from '../transcript/message.ts';
import { CHARS_PER_TOKEN } from './estimate-tokens-rough.ts';
import { pythonJsonDumpsLength } from './python-json-dumps.ts';
import { pythonLength } from './python-length.ts';
import { pythonReprLength, pythonStr } from './python-repr.ts';
import { pythonTruthy } from './python-truthy.ts';

/** Role and key overhead Hermes adds to every message in the tail walk. */
export const MESSAGE_OVERHEAD_TOKENS = 10;
/** 2026-07 prices an image part at 1600 tokens, expressed in the walk's character currency. */
export const IMAGE_CHAR_EQUIVALENT = 1600 * CHARS_PER_TOKEN;

const IMAGE_PART_TYPES: ReadonlySet<unknown> = new Set(['image_url', 'input_image', 'image']);
/** Provider replay fields that ride the wire but live outside `content` (#55572). */
const REPLAY_BUDGET_KEYS = [
  'reasoning',
  'reasoning_content',
  'reasoning_details',
  'codex_reasoning_items',
  'codex_message_items',
] as const;

const tokensOf = (chars: number): number => Math.floor(chars / CHARS_PER_TOKEN);

/** Python `len(value)` for whatever a message field holds; unsized values fall back to `len(str())`. */
function pythonSize(value: unknown): number {
  if (typeof value === 'string') return pythonLength(value);
  if (Array.isArray(value)) return value.length;
  if (value instanceof Map) return value.size;
  if (isPlainObject(value)) return Object.values(value).filter((item) => item !== undefined).length;
  return pythonLength(pythonStr(value));
}

/** Hermes `_content_length_for_budget`: text lengths, a flat 6400 per image part. */
function envelopeContentLength(content: unknown): number {
  if (typeof content === 'string') return pythonLength(content);
  if (!Array.isArray(content)) return pythonLength(pythonStr(pythonTruthy(content) ? content : ''));
  let total = 0;
  for (const part of content) {
    if (typeof part === 'string') total += pythonLength(part);
    else if (!isPlainObject(part)) total += pythonLength(pythonStr(part));
    else if (IMAGE_PART_TYPES.has(part.type)) total += IMAGE_CHAR_EQUIVALENT;
    else {
      const text = part.text;
      total += typeof text === 'string' ? pythonLength(text) : pythonTruthy(text) ? pythonSize(text) : 0;
    }
  }
  return total;
}

/** Hermes `_serialized_length_for_budget`: strings by length, anything else as sorted compact-ish JSON. */
function replayFieldLength(value: unknown): number {
  if (value === null || value === undefined || value === '') return 0;
  if (typeof value === 'string') return pythonLength(value);
  return pythonJsonDumpsLength(value);
}

/** 2026-07 `_estimate_msg_budget_tokens`: content, the whole tool-call envelope, replay fields. */
function envelopeTokens(message: Message): number {
  const content = pythonTruthy(message.content) ? message.content : '';
  let tokens = tokensOf(envelopeContentLength(content)) + MESSAGE_OVERHEAD_TOKENS;
  const toolCalls: unknown = message.tool_calls;
  if (Array.isArray(toolCalls)) {
    for (let i = 0; i < toolCalls.length; i++) {
      const call: unknown = toolCalls[i];
      if (isPlainObject(call)) tokens += tokensOf(pythonReprLength(call));
    }
  }
  for (let k = 0; k < REPLAY_BUDGET_KEYS.length; k++)
    tokens += tokensOf(replayFieldLength(message[REPLAY_BUDGET_KEYS[k]!]));
  return tokens;
}

/** Sum of `len(arguments)` over dict tool calls, as the 2026-04 walks count them. */
function argumentsTokens(message: Message): number {
  let tokens = 0;
  const toolCalls: unknown = message.tool_calls;
  if (!Array.isArray(toolCalls)) return 0;
  for (let i = 0; i < toolCalls.length; i++) {
    const call: unknown = toolCalls[i];
    if (!isPlainObject(call)) continue;
    const fn = isPlainObject(call.function) ? call.function : {};
    const argumentsValue = fn.arguments ?? '';
    tokens += tokensOf(argumentsValue === null ? 0 : pythonSize(argumentsValue));
  }
  return tokens;
}

/** 2026-04 tail weight: `len(content)//4 + 10 + Σ len(arguments)//4`; a list counts its parts. */
function contentAndArgumentsTokens(message: Message): number {
  const content = pythonTruthy(message.content) ? message.content : '';
  return tokensOf(pythonSize(content)) + MESSAGE_OVERHEAD_TOKENS + argumentsTokens(message);
}

/** 2026-04 prune-boundary weight: like the tail weight, but a list counts its text-part lengths. */
function textPartsTokens(message: Message): number {
  const content = pythonTruthy(message.content) ? message.content : '';
  let chars = 0;
  if (Array.isArray(content)) {
    for (const part of content) {
      const text = isPlainObject(part) ? part.text : undefined;
      if (typeof text === 'string') chars += pythonLength(text);
    }
  } else {
    chars = pythonSize(content);
  }
  return tokensOf(chars) + MESSAGE_OVERHEAD_TOKENS + argumentsTokens(message);
}

/**
 * The per-message weight of the tail walk (Hermes `_estimate_msg_budget_tokens`), which
 * decides where the protected tail starts. Not the same number as the rough estimate.
 */
export function messageBudgetTokens(message: Message, preset: Preset): number {
  const mode = preset.estimation.tailWeight;
  switch (mode) {
    case 'content-and-arguments':
      return contentAndArgumentsTokens(message);
    case 'envelope':
      return envelopeTokens(message);
    default:
      return assertNever(mode);
  }
}

/** The weight of a message in the prune-boundary walk of `_prune_old_tool_results`. */
export function pruneWalkTokens(message: Message, preset: Preset): number {
  const mode = preset.pruning.boundaryWeight;
  switch (mode) {
    case 'text-parts':
      return textPartsTokens(message);
    case 'tail-weight':
      return messageBudgetTokens(message, preset);
    default:
      return assertNever(mode);
  }
}
