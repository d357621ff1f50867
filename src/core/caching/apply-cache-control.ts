import type { Preset } from '../presets/preset.ts';
import type { Message } from '../transcript/message.ts';

/** Anthropic cache lifetimes Hermes offers (`prompt_caching.cache_ttl`). */
export type CacheTtl = '5m' | '1h';

export interface CacheMarker {
  type: 'ephemeral';
  ttl?: '1h';
}

/** Breakpoints per request: Anthropic accepts at most 4 (peers.md §0 item 5). */
export const MAX_CACHE_BREAKPOINTS = 4;

/**
 * The `cache_control` marker for a TTL. Only `'1h'` carries a `ttl` field; any other value
 * (including unknown strings from old settings) gives the 5-minute marker (hermes-reference §8).
 */
export function cacheMarker(ttl: string): CacheMarker {
  return ttl === '1h' ? { type: 'ephemeral', ttl: '1h' } : { type: 'ephemeral' };
}

export interface CacheControlOptions {
  /** `'5m'` or `'1h'`; other strings fall back to the 5-minute marker. */
  ttl: CacheTtl | (string & {});
  /** Native Anthropic layout (markers may sit on any message) vs the OpenRouter envelope layout. */
  nativeLayout: boolean;
}

/**
 * Hermes' `system_and_3` layout (`apply_anthropic_cache_control`, hermes-reference §8): mark the
 * leading system message, then the last `4 − used` non-system messages that can carry a marker.
 * Returns a deep copy; the input is never mutated.
 */
export function applyCacheControl(
  messages: readonly Message[],
  options: CacheControlOptions,
  preset: Preset,
): Message[] {
  const copy = structuredCloneMessages(messages);
  const marker = cacheMarker(options.ttl);
  for (const index of cacheControlIndices(messages, options, preset)) {
    markMessage(copy[index]!, marker, options.nativeLayout, preset);
  }
  return copy;
}

/**
 * The indices of the messages `applyCacheControl` marks, ascending, without copying anything:
 * the leading system message, then the last `4 − used` others that can carry a marker.
 */
export function cacheControlIndices(
  messages: readonly Message[],
  options: CacheControlOptions,
  preset: Preset,
): number[] {
  if (messages.length === 0) return [];
  const indices: number[] = [];
  if (messages[0]!.role === 'system') indices.push(0);
  const remaining = MAX_CACHE_BREAKPOINTS - indices.length;
  // The last candidates, found from the end: a long request is not walked from its start.
  const last: number[] = [];
  for (let index = messages.length - 1; index >= 0 && last.length < remaining; index--) {
    const message = messages[index]!;
    if (message.role !== 'system' && canCarryMarker(message, options.nativeLayout, preset)) last.push(index);
  }
  return indices.concat(last.reverse());
}

/** One message as `applyCacheControl` marks it: a deep copy carrying the marker. */
export function markedCopy(message: Message, options: CacheControlOptions, preset: Preset): Message {
  const copy = deepCopy(message) as Message;
  markMessage(copy, cacheMarker(options.ttl), options.nativeLayout, preset);
  return copy;
}

/**
 * Whether a marker on this message is honoured. The 2026-07 envelope layout only counts
 * markers inside content parts, so empty content does not use up a breakpoint; 2026-04 counted
 * every non-system message.
 */
function canCarryMarker(message: Message, nativeLayout: boolean, preset: Preset): boolean {
  if (preset.caching.markers === 'every-message' || nativeLayout) return true;
  const content = message.content;
  if (Array.isArray(content)) return content.length > 0 && isPlainRecord(content[content.length - 1]);
  return typeof content === 'string' && content !== '';
}

function markMessage(message: Message, marker: CacheMarker, nativeLayout: boolean, preset: Preset): void {
  const role = message.role;
  const content = message.content;
  if (preset.caching.markers === 'every-message' && role === 'tool') {
    // 2026-04: tool messages got a top-level marker in native layout and nothing in envelope layout.
    if (nativeLayout) message.cache_control = { ...marker };
    return;
  }
  if ((role === 'tool' && nativeLayout) || content === null || content === undefined || content === '') {
    // 2026-07 skips empty tool/assistant turns in envelope layout: OpenRouter rejects a top-level
    // marker on role:tool and ignores it on empty assistant turns.
    const skip =
      preset.caching.markers === 'content-aware' &&
      !nativeLayout &&
      (role === 'tool' || role === 'assistant');
    if (!skip) message.cache_control = { ...marker };
    return;
  }
  if (typeof content === 'string') {
    message.content = [{ type: 'text', text: content, cache_control: { ...marker } }];
    return;
  }
  if (Array.isArray(content) && content.length > 0) {
    const last = content[content.length - 1];
    if (isPlainRecord(last)) last.cache_control = { ...marker };
  }
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON-shaped deep copy: messages are plain data, so this keeps every key and value. */
function structuredCloneMessages(messages: readonly Message[]): Message[] {
  return messages.map((message) => deepCopy(message) as Message);
}

function deepCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(deepCopy);
  if (isPlainRecord(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, entry] of Object.entries(value)) copy[key] = deepCopy(entry);
    return copy;
  }
  return value;
}
