import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { describe, expect, it } from 'vitest';
import { simulateCompactionCache } from '#core/ledger/simulate-compaction-cache.ts';
import { messageText, type Message } from '#core/transcript/message.ts';

const TOKENS: Record<string, number> = { sys: 3_000, summary: 1_500 };
const message = (role: string, content: string): Message => ({ role, content });
const countTokens = (item: Message): number => TOKENS[messageText(item)] ?? 2_000;

const before = [
  message('system', 'sys'),
  message('user', 'u1'),
  message('assistant', 'a1'),
  message('tool', 't1'),
  message('user', 'u2'),
];
const after = [message('system', 'sys'), message('user', 'summary'), message('user', 'u2')];

describe('simulateCompactionCache', () => {
  it('reads the unchanged system prompt and writes the rest of the compacted request', () => {
    // Before: system_and_3 marks sys, a1, t1, u2; an empty cache writes the whole 11,000.
    // After: marks sys, summary, u2; only the system prompt's prefix (3,000) was written
    // before, so it is read and the remaining 3,500 (summary 1,500 + u2 2,000) are written.
    expect(
      simulateCompactionCache({
        before,
        after,
        countTokens,
        caching: true,
        ttl: '5m',
        preset: HERMES_2026_07,
      }),
    ).toEqual({
      tokensBefore: 11_000,
      tokensAfter: 6_500,
      cachedTokensBefore: 11_000,
      cachedTokensAfter: 3_000,
      rewriteTokens: 3_500,
      source: 'simulation',
    });
  });

  it('reads nothing when the compaction changed the system prompt', () => {
    const changed = [message('system', 'sys + compaction note'), ...after.slice(1)];
    expect(
      simulateCompactionCache({
        before,
        after: changed,
        countTokens,
        caching: true,
        ttl: '1h',
        preset: HERMES_2026_04,
      }),
    ).toMatchObject({ cachedTokensAfter: 0, rewriteTokens: 5_500 });
  });

  it('has no cache figures when the route does not cache', () => {
    expect(
      simulateCompactionCache({
        before,
        after,
        countTokens,
        caching: false,
        ttl: '5m',
        preset: HERMES_2026_07,
      }),
    ).toEqual({
      tokensBefore: 11_000,
      tokensAfter: 6_500,
      cachedTokensBefore: 0,
      cachedTokensAfter: 0,
      rewriteTokens: 0,
      source: 'simulation',
    });
  });
});
