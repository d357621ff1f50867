import { describe, expect, it } from 'vitest';
import { applyCacheControl } from '#core/caching/apply-cache-control.ts';
import { cacheSegmentsFromMessages } from '#core/caching/cache-segments-from-messages.ts';
import {
  CACHE_LOOKBACK_BLOCKS,
  FIVE_MINUTE_TTL_MS,
  simulatePromptCache,
  type CacheSegment,
  type PromptCacheState,
} from '#core/caching/simulate-prompt-cache.ts';
import type { Message } from '#core/transcript/message.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const SYSTEM_TOKENS = 3000;
const MESSAGE_TOKENS = 400;
/** Anthropic multipliers relative to the input price (peers.md §0 item 5). */
const CACHE_READ_MULTIPLIER = 0.1;
const CACHE_WRITE_MULTIPLIER = 1.25;

const tokensOf = (message: Message): number => (message.role === 'system' ? SYSTEM_TOKENS : MESSAGE_TOKENS);

const segment = (text: string, tokens: number, breakpoint = false): CacheSegment => ({
  text,
  tokens,
  breakpoint,
});

describe('simulatePromptCache', () => {
  it('cuts the input cost of a 40-turn system_and_3 conversation by more than 70%', () => {
    let state: PromptCacheState = {};
    let now = 0;
    const history: Message[] = [{ role: 'system', content: 'You are a careful assistant.' }];
    let cachedCost = 0;
    let uncachedCost = 0;
    let reads = 0;
    for (let turn = 0; turn < 40; turn++) {
      history.push({ role: 'user', content: `question ${turn}` });
      const request = applyCacheControl(history, { ttl: '5m', nativeLayout: true }, HERMES_2026_04);
      const result = simulatePromptCache(cacheSegmentsFromMessages(request, tokensOf), state, now);
      state = result.nextState;
      reads += result.cacheReadTokens;
      cachedCost +=
        result.uncachedInputTokens +
        result.cacheReadTokens * CACHE_READ_MULTIPLIER +
        result.cacheWriteTokens * CACHE_WRITE_MULTIPLIER;
      uncachedCost += result.uncachedInputTokens + result.cacheReadTokens + result.cacheWriteTokens;
      history.push({ role: 'assistant', content: `answer ${turn}` });
      now += 30_000;
    }
    expect(reads).toBeGreaterThan(0.8 * uncachedCost);
    expect(cachedCost).toBeLessThan(0.3 * uncachedCost);
  });

  it('accounts for every prompt token exactly once', () => {
    const segments = [
      segment('a', 2000, true),
      segment('b', 500),
      segment('c', 700, true),
      segment('d', 300),
    ];
    const first = simulatePromptCache(segments, {}, 0);
    expect(first).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 3200, uncachedInputTokens: 300 });
    const second = simulatePromptCache([...segments, segment('e', 100, true)], first.nextState, 1000);
    expect(second).toMatchObject({ cacheReadTokens: 3200, cacheWriteTokens: 400, uncachedInputTokens: 0 });
  });

  it('does not cache a prefix shorter than the minimum', () => {
    const result = simulatePromptCache([segment('short', 500, true), segment('tail', 100)], {}, 0);
    expect(result).toMatchObject({ cacheWriteTokens: 0, uncachedInputTokens: 600, nextState: {} });
  });

  it('finds an earlier prefix within the 20-block lookback but not beyond it', () => {
    const base = [segment('system', 2000, true)];
    const blocks = (count: number) => Array.from({ length: count }, (_, index) => segment(`m${index}`, 10));
    const first = simulatePromptCache(base, {}, 0);
    const near = [...base, ...blocks(CACHE_LOOKBACK_BLOCKS - 1)];
    near[near.length - 1] = { ...near[near.length - 1]!, breakpoint: true };
    near[0] = { ...near[0]!, breakpoint: false };
    expect(simulatePromptCache(near, first.nextState, 1).cacheReadTokens).toBe(2000);
    const far = [segment('system', 2000), ...blocks(CACHE_LOOKBACK_BLOCKS + 5)];
    far[far.length - 1] = { ...far[far.length - 1]!, breakpoint: true };
    expect(simulatePromptCache(far, first.nextState, 1).cacheReadTokens).toBe(0);
  });

  it('expires entries after their lifetime and keeps one-hour entries longer', () => {
    const fiveMinutes = simulatePromptCache([segment('s', 2000, true)], {}, 0);
    expect(
      simulatePromptCache([segment('s', 2000, true)], fiveMinutes.nextState, FIVE_MINUTE_TTL_MS + 1)
        .cacheReadTokens,
    ).toBe(0);
    const oneHour = simulatePromptCache([{ ...segment('s', 2000, true), ttl: '1h' }], {}, 0);
    expect(
      simulatePromptCache(
        [{ ...segment('s', 2000, true), ttl: '1h' }],
        oneHour.nextState,
        FIVE_MINUTE_TTL_MS + 1,
      ).cacheReadTokens,
    ).toBe(2000);
  });

  it('honours at most four breakpoints', () => {
    const segments = Array.from({ length: 6 }, (_, index) => segment(`b${index}`, 1100, true));
    const result = simulatePromptCache(segments, {}, 0);
    expect(result.ignoredBreakpoints).toBe(2);
    expect(result.cacheWriteTokens).toBe(4400);
    expect(result.uncachedInputTokens).toBe(2200);
  });

  it('does not mutate the state it was given', () => {
    const state = Object.freeze({ stale: -1 });
    const result = simulatePromptCache([segment('s', 2000, true)], state, 0);
    expect(state).toEqual({ stale: -1 });
    expect(result.nextState).not.toHaveProperty('stale');
  });
});

describe('cacheSegmentsFromMessages', () => {
  it('hashes a marked message like the same message unmarked', () => {
    const plain: Message[] = [{ role: 'user', content: 'hello' }];
    const marked = applyCacheControl(plain, { ttl: '1h', nativeLayout: true }, HERMES_2026_07);
    const [before] = cacheSegmentsFromMessages(plain, () => 1);
    const [after] = cacheSegmentsFromMessages(marked, () => 1);
    expect(after!.text).toBe(before!.text);
    expect(after).toMatchObject({ breakpoint: true, ttl: '1h' });
    expect(before!.breakpoint).toBe(false);
  });
});
