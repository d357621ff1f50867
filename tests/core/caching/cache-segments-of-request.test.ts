import { describe, expect, it } from 'vitest';
import { applyCacheControl, type CacheControlOptions } from '#core/caching/apply-cache-control.ts';
import {
  cacheSegmentsFromMessages,
  cacheSegmentsOfRequest,
} from '#core/caching/cache-segments-from-messages.ts';
import {
  CACHE_LOOKBACK_BLOCKS,
  simulatePromptCache,
  type CacheSegment,
  type PromptCacheState,
} from '#core/caching/simulate-prompt-cache.ts';
import { createSeededRandom, type SeededRandom } from '#core/demo/seeded-random.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import type { Message } from '#core/transcript/message.ts';

/** A counter that depends on the content only, as the rough estimator does. */
const countTokens = (message: Message): number => JSON.stringify(message).length;

const TEXTS = ['', 'hi', 'a longer text with — dashes', 'x'.repeat(40)];

function randomContent(random: SeededRandom): Message['content'] {
  switch (random.integer(0, 5)) {
    case 0:
      return random.pick(TEXTS);
    case 1:
      return null;
    case 2:
      // A lone text part: the segment folds it back into a string.
      return [{ type: 'text', text: random.pick(TEXTS) }];
    case 3:
      return [
        {
          type: 'text',
          text: random.pick(TEXTS),
          ...(random.chance(0.5) ? { cache_control: { type: 'ephemeral' } } : {}),
        },
        { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
      ];
    case 4:
      return [];
    default:
      return [{ type: 'text', text: 'marked', cache_control: { type: 'ephemeral', ttl: '1h' } }];
  }
}

function randomMessages(random: SeededRandom): Message[] {
  const messages: Message[] = [];
  if (random.chance(0.7)) messages.push({ role: 'system', content: random.pick(TEXTS) });
  for (let count = random.integer(0, 30); count > 0; count--) {
    const role = random.pick(['user', 'assistant', 'tool', 'system']);
    const message: Message = { role, content: randomContent(random) };
    if (role === 'tool') message.tool_call_id = `call_${random.integer(0, 9)}`;
    if (role === 'assistant' && random.chance(0.3))
      message.tool_calls = [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{}' } }];
    // Imported transcripts may carry markers of their own.
    if (random.chance(0.1)) message.cache_control = { type: 'ephemeral' };
    messages.push(message);
  }
  return messages;
}

/** cacheSegmentsFromMessages as it was before unchanged messages were passed on as they are. */
function referenceSegments(marked: readonly Message[]): CacheSegment[] {
  const unmarkedForm = (message: Message): Message => {
    const { cache_control: _ignored, ...rest } = message;
    const content = rest.content;
    if (!Array.isArray(content)) return rest;
    const parts = content.map((part) => {
      if (!part || typeof part !== 'object' || !('cache_control' in part)) return part;
      const { cache_control: _marker, ...partRest } = part;
      return partRest;
    });
    const only = parts[0];
    if (
      parts.length === 1 &&
      only &&
      typeof only === 'object' &&
      only.type === 'text' &&
      typeof only.text === 'string' &&
      Object.keys(only).length === 2
    )
      return { ...rest, content: only.text };
    return { ...rest, content: parts };
  };
  return marked.map((message) => {
    const markers: unknown[] = [];
    if (message.cache_control !== undefined) markers.push(message.cache_control);
    if (Array.isArray(message.content))
      for (const part of message.content)
        if (part && typeof part === 'object' && 'cache_control' in part) markers.push(part.cache_control);
    const unmarked = unmarkedForm(message);
    const segment: CacheSegment = {
      text: JSON.stringify(unmarked),
      tokens: countTokens(unmarked),
      breakpoint: markers.length > 0,
    };
    if (markers.length > 0)
      segment.ttl = markers.some((marker) => (marker as { ttl?: unknown } | null)?.ttl === '1h')
        ? '1h'
        : '5m';
    return segment;
  });
}

/** simulatePromptCache as it was before it spelled keys out lazily: the reference. */
function referenceSimulation(segments: readonly CacheSegment[], state: PromptCacheState, nowMs: number) {
  const fnv = (hash: number, text: string): number => {
    let value = hash;
    for (let index = 0; index < text.length; index++) {
      value ^= text.charCodeAt(index);
      value = Math.imul(value, 0x01000193) >>> 0;
    }
    return value;
  };
  const ttlMs = (ttl: string | undefined): number => (ttl === '1h' ? 3_600_000 : 300_000);
  const live: Record<string, number> = {};
  for (const [key, expiresAtMs] of Object.entries(state)) if (expiresAtMs > nowMs) live[key] = expiresAtMs;
  const keys: string[] = [];
  const sizes: number[] = [];
  let hash = 0x811c9dc5;
  let tokens = 0;
  segments.forEach((segment, index) => {
    hash = fnv(hash, `\u0000${segment.text}`);
    tokens += Math.max(0, segment.tokens);
    sizes.push(tokens);
    keys.push(`${index + 1}:${tokens}:${hash.toString(16).padStart(8, '0')}`);
  });
  const all = segments.flatMap((segment, index) => (segment.breakpoint ? [index] : []));
  const breakpoints = all.slice(0, 4);
  let readEnd = -1;
  for (const breakpoint of breakpoints) {
    const earliest = Math.max(0, breakpoint - CACHE_LOOKBACK_BLOCKS);
    for (let position = breakpoint; position >= earliest && position > readEnd; position--) {
      if (live[keys[position]!] !== undefined) {
        readEnd = position;
        break;
      }
    }
  }
  const cacheReadTokens = readEnd >= 0 ? sizes[readEnd]! : 0;
  if (readEnd >= 0)
    live[keys[readEnd]!] = Math.max(live[keys[readEnd]!]!, nowMs + ttlMs(segments[readEnd]!.ttl));
  let writeEnd = -1;
  for (const breakpoint of breakpoints) {
    if (sizes[breakpoint]! < 1024) continue;
    live[keys[breakpoint]!] = Math.max(
      live[keys[breakpoint]!] ?? 0,
      nowMs + ttlMs(segments[breakpoint]!.ttl),
    );
    writeEnd = Math.max(writeEnd, breakpoint);
  }
  const writtenThrough = writeEnd >= 0 ? sizes[writeEnd]! : 0;
  return {
    cacheReadTokens,
    cacheWriteTokens: Math.max(0, writtenThrough - cacheReadTokens),
    uncachedInputTokens: tokens - Math.max(cacheReadTokens, writtenThrough),
    ignoredBreakpoints: all.length - breakpoints.length,
    nextState: live,
  };
}

describe('cacheSegmentsOfRequest', () => {
  it('gives the segments of the marked copy, for random requests (seeded)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = createSeededRandom(seed);
      const messages = randomMessages(random);
      const options: CacheControlOptions = {
        ttl: random.pick(['5m', '1h', 'an old setting']),
        nativeLayout: random.chance(0.5),
      };
      const preset = random.pick([HERMES_2026_04, HERMES_2026_07]);
      const untouched = structuredClone(messages);
      const marked = applyCacheControl(messages, options, preset);
      const expected = referenceSegments(marked);
      expect(cacheSegmentsOfRequest(messages, options, preset, countTokens), `seed ${seed}`).toEqual(
        expected,
      );
      expect(cacheSegmentsFromMessages(marked, countTokens), `seed ${seed}`).toEqual(expected);
      expect(messages, `seed ${seed}: the input is not marked`).toEqual(untouched);
    }
  });

  it('passes an unmarked message to the counter as it is, so a counter that remembers it knows it', () => {
    const messages: Message[] = [
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'two' },
      { role: 'user', content: 'three' },
      { role: 'assistant', content: 'four' },
      { role: 'user', content: 'five' },
    ];
    const counted: Message[] = [];
    cacheSegmentsOfRequest(messages, { ttl: '5m', nativeLayout: true }, HERMES_2026_07, (message) => {
      counted.push(message);
      return 1;
    });
    // system_and_3 marks the system prompt and the last three: those are copies; the rest are not.
    expect(counted).toHaveLength(messages.length);
    expect(counted[1]).toBe(messages[1]);
    expect(counted[2]).toBe(messages[2]);
    for (const index of [0, 3, 4, 5]) expect(counted[index]).not.toBe(messages[index]);
  });
});

describe('simulatePromptCache keys', () => {
  it('reads and writes what the reference does, for random segments and states (seeded)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = createSeededRandom(seed);
      const segments: CacheSegment[] = Array.from({ length: random.integer(0, 60) }, () => {
        const segment: CacheSegment = {
          text: random.pick(['a', 'b', 'é', '{"role":"user"}', '']),
          tokens: random.integer(0, 900),
          breakpoint: random.chance(0.15),
        };
        if (random.chance(0.3)) segment.ttl = random.pick(['5m', '1h'] as const);
        return segment;
      });
      // A state written by an earlier request: a prefix of these segments, sometimes changed.
      const earlier = segments
        .slice(0, random.integer(0, segments.length))
        .map((segment) => (random.chance(0.1) ? { ...segment, text: `${segment.text}!` } : segment));
      const state = referenceSimulation(earlier, {}, 0).nextState;
      const now = random.pick([1_000, 400_000]);
      expect(simulatePromptCache(segments, state, now), `seed ${seed}`).toEqual(
        referenceSimulation(segments, state, now),
      );
    }
  });
});
