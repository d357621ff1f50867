import { describe, expect, it } from 'vitest';
import type { CompactionCacheFigures } from '#core/ledger/compaction-cache-figures.ts';
import { liveCompactionLedger } from '#core/ledger/live-compaction-ledger.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import { messageText, type Message } from '#core/transcript/message.ts';
import { EMPTY_USAGE, type CanonicalUsage } from '#core/usage/canonical-usage.ts';

const message = (role: string, name: string, tokens: number): Message => ({
  role,
  content: `${name}:${'x'.repeat(tokens - name.length - 1)}`,
});
const countTokens = (item: Message): number => messageText(item).length;
const system = message('system', 'sys', 3_000);
const tail = [message('user', 'u2', 10_000), message('assistant', 'a2', 5_000)];
const before = [system, message('user', 'u1', 20_000), message('assistant', 'a1', 30_000), ...tail];
const after = [system, message('user', 'summary', 2_000), ...tail];

const usage = (overrides: Partial<CanonicalUsage>): CanonicalUsage => ({
  ...EMPTY_USAGE,
  requestCount: 1,
  ...overrides,
});
const simulatedCache: CompactionCacheFigures = {
  tokensBefore: 68_000,
  tokensAfter: 20_000,
  cachedTokensBefore: 0,
  cachedTokensAfter: 0,
  rewriteTokens: 0,
  source: 'simulation',
};
const common = {
  model: 'claude-sonnet-4-6',
  route: { provider: 'anthropic', baseUrl: 'https://api.anthropic.com' },
  preset: HERMES_2026_07,
  before,
  after,
  countTokens,
  simulatedCache,
  cacheTtl: '5m' as const,
};

describe('liveCompactionLedger', () => {
  it('prices the summary from every summariser response and the cache from the last chat usage', () => {
    const { ledger, cache } = liveCompactionLedger({
      ...common,
      summaryUsages: [
        usage({ inputTokens: 50_000, outputTokens: 1_000 }),
        usage({ inputTokens: 10_000, outputTokens: 500 }),
      ],
      lastUsage: usage({
        inputTokens: 1_000,
        cacheReadTokens: 60_000,
        cacheWriteTokens: 9_000,
        outputTokens: 400,
      }),
    });
    expect(ledger.summaryInputTokens).toBe(60_000);
    expect(ledger.summaryOutputTokens).toBe(1_500);
    expect(cache.source).toBe('usage');
    // 70,000 reported − 68,000 counted before + 20,000 counted after.
    expect(cache.tokensAfter).toBe(22_000);
    expect(ledger.savedTokensPerTurn).toBe(48_000);
    expect(ledger.priced).toBe(true);
  });

  it('keeps the simulated cache figures when no chat response came before the compaction', () => {
    const { ledger, cache } = liveCompactionLedger({ ...common, summaryUsages: [], lastUsage: null });
    expect(cache).toBe(simulatedCache);
    expect(ledger.summaryInputTokens).toBe(0);
    expect(ledger.summaryUsd).toBe(0);
  });
});
