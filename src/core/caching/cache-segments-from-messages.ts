import type { Preset } from '../presets/preset.ts';
import type { Message } from '../transcript/message.ts';
import {
  cacheControlIndices,
  markedCopy,
  type CacheControlOptions,
  type CacheTtl,
} from './apply-cache-control.ts';
import type { CacheSegment } from './simulate-prompt-cache.ts';

/**
 * One cache block per message of a request already marked by `applyCacheControl`: a message
 * carrying `cache_control` (top level or on a content part) ends a breakpoint. The hashed text
 * leaves the markers out, so the same message hashes the same whether or not it is marked this
 * turn — which is what makes a prefix written last turn readable now.
 */
export function cacheSegmentsFromMessages(
  messages: readonly Message[],
  countTokens: (message: Message) => number,
): CacheSegment[] {
  return messages.map((message) => segmentOf(message, countTokens));
}

/**
 * The segments of `messages` sent with Hermes' `system_and_3` markers: the same as
 * `cacheSegmentsFromMessages(applyCacheControl(messages, options, preset), countTokens)`, but
 * only the (at most four) marked messages are copied. The replay's ledger sends a whole
 * transcript through this: copying 50,000 messages to mark four was 40 MB of garbage and a
 * fifth of its time.
 */
export function cacheSegmentsOfRequest(
  messages: readonly Message[],
  options: CacheControlOptions,
  preset: Preset,
  countTokens: (message: Message) => number,
): CacheSegment[] {
  const marked = new Set(cacheControlIndices(messages, options, preset));
  return messages.map((message, index) =>
    segmentOf(marked.has(index) ? markedCopy(message, options, preset) : message, countTokens),
  );
}

function segmentOf(message: Message, countTokens: (message: Message) => number): CacheSegment {
  const ttl = markerTtl(message);
  // Count the unmarked form too: marking turns a string into a text part, and a size that
  // changed with the marker would change the prefix and break reads of last turn's writes.
  const unmarked = withoutMarkers(message);
  const segment: CacheSegment = {
    text: JSON.stringify(unmarked),
    tokens: countTokens(unmarked),
    breakpoint: ttl !== null,
  };
  if (ttl !== null) segment.ttl = ttl;
  return segment;
}

function markerTtl(message: Message): CacheTtl | null {
  const markers: unknown[] = [];
  if (message.cache_control !== undefined) markers.push(message.cache_control);
  if (Array.isArray(message.content)) {
    for (const part of message.content) {
      if (part && typeof part === 'object' && 'cache_control' in part) markers.push(part.cache_control);
    }
  }
  if (markers.length === 0) return null;
  return markers.some((marker) => isOneHour(marker)) ? '1h' : '5m';
}

const isOneHour = (marker: unknown): boolean =>
  typeof marker === 'object' && marker !== null && (marker as { ttl?: unknown }).ttl === '1h';

/**
 * The message with its markers left out and a lone text part folded back into a string. A
 * message this would not change is returned as it is, so a token counter that remembers
 * messages (the plan's rough sizes) knows it already.
 */
function withoutMarkers(message: Message): Message {
  if (!changedWithoutMarkers(message)) return message;
  const { cache_control: _ignored, ...rest } = message;
  const content = rest.content;
  if (!Array.isArray(content)) return rest;
  // A marked string becomes one text part; fold it back so both shapes hash alike.
  const parts = content.map((part) => {
    if (!part || typeof part !== 'object' || !('cache_control' in part)) return part;
    const { cache_control: _marker, ...partRest } = part;
    return partRest;
  });
  const lone = loneText(parts);
  return lone === null ? { ...rest, content: parts } : { ...rest, content: lone };
}

/** A `cache_control` key on the message or on one of its parts, or a lone text part to fold. */
function changedWithoutMarkers(message: Message): boolean {
  if ('cache_control' in message) return true;
  const content = message.content;
  if (!Array.isArray(content)) return false;
  for (const part of content) if (part && typeof part === 'object' && 'cache_control' in part) return true;
  return loneText(content) !== null;
}

/** The text of a content list that is one plain text part (`{type: 'text', text}`), else null. */
function loneText(parts: readonly unknown[]): string | null {
  const only = parts[0] as { type?: unknown; text?: unknown } | null | undefined;
  if (parts.length !== 1 || !only || typeof only !== 'object') return null;
  return only.type === 'text' && typeof only.text === 'string' && Object.keys(only).length === 2
    ? only.text
    : null;
}
