import { describe, expect, it } from 'vitest';
import { cacheFiguresFromUsage } from '#core/ledger/cache-figures-from-usage.ts';
import { messageText, type Message } from '#core/transcript/message.ts';
import type { CanonicalUsage } from '#core/usage/canonical-usage.ts';

/** A message whose content is `tokens` characters counts `tokens` tokens. */
const message = (role: string, name: string, tokens: number): Message => ({
  role,
  content: `${name}:${'x'.repeat(tokens - name.length - 1)}`,
});
const countTokens = (item: Message): number => messageText(item).length;

const system = message('system', 'sys', 3_000);
const summary = message('user', 'summary', 2_000);
const tail = [message('user', 'u2', 10_000), message('assistant', 'a2', 5_000)];
const before = [
  system,
  message('user', 'u1', 20_000),
  message('assistant', 'a1', 30_000),
  message('tool', 't1', 40_000),
  ...tail,
];
const after = [system, summary, ...tail];

const lastUsage = (overrides: Partial<CanonicalUsage> = {}): CanonicalUsage => ({
  inputTokens: 2_000,
  outputTokens: 800,
  cacheReadTokens: 140_000,
  cacheWriteTokens: 8_000,
  reasoningTokens: 0,
  requestCount: 1,
  ...overrides,
});

describe('cacheFiguresFromUsage', () => {
  it('derives the figures of a live compaction from the last response', () => {
    // Provider prompt: 2,000 + 140,000 + 8,000 = 150,000, of which 148,000 cached.
    // Counted: before 108,000, after 20,000 → after = 150,000 − 108,000 + 20,000 = 62,000.
    // Overhead (tools, framing) 150,000 − 108,000 = 42,000, plus the unchanged system prompt
    // 3,000 → 45,000 still cached; the other 17,000 are written again.
    expect(cacheFiguresFromUsage({ lastUsage: lastUsage(), before, after, countTokens })).toEqual({
      tokensBefore: 150_000,
      tokensAfter: 62_000,
      cachedTokensBefore: 148_000,
      cachedTokensAfter: 45_000,
      rewriteTokens: 17_000,
      source: 'usage',
    });
  });

  it('has nothing cached or rewritten when the last response read and wrote no cache', () => {
    const usage = lastUsage({ inputTokens: 150_000, cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(cacheFiguresFromUsage({ lastUsage: usage, before, after, countTokens })).toMatchObject({
      tokensBefore: 150_000,
      tokensAfter: 62_000,
      cachedTokensBefore: 0,
      cachedTokensAfter: 0,
      rewriteTokens: 0,
    });
  });

  it('keeps nothing cached when the unchanged prefix is shorter than the provider caches', () => {
    // No overhead (prompt = counted = 108,000) and a 3,000-token prefix under a 4,096 minimum.
    const usage = lastUsage({ inputTokens: 0, cacheReadTokens: 100_000, cacheWriteTokens: 8_000 });
    expect(
      cacheFiguresFromUsage({ lastUsage: usage, before, after, countTokens, minimumCacheableTokens: 4_096 }),
    ).toMatchObject({ tokensAfter: 20_000, cachedTokensAfter: 0, rewriteTokens: 20_000 });
  });
});
