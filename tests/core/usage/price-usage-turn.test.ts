import { describe, expect, it } from 'vitest';
import { priceUsageTurn, type RecordedUsage } from '#core/usage/price-usage-turn.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';

const record = (overrides: Partial<RecordedUsage> = {}): RecordedUsage => ({
  sessionId: 's1',
  createdAt: 5,
  model: 'claude-sonnet-4-20250514',
  inputTokens: 1_000_000,
  outputTokens: 100_000,
  cacheReadTokens: 2_000_000,
  cacheWriteTokens: 50_000,
  reasoningTokens: 0,
  requestCount: 1,
  costUsd: 0,
  compaction: false,
  ...overrides,
});

describe('priceUsageTurn', () => {
  it('prices with the snapshot table and prices the uncached baseline too', () => {
    const turn = priceUsageTurn(record(), { provider: 'anthropic' }, HERMES_2026_04);
    // hermes-reference §9's example: $5.2875. Uncached: 3.05M input × $3 + 100K × $15 = $10.65.
    expect(turn.costUsd).toBeCloseTo(5.2875, 9);
    expect(turn.uncachedCostUsd).toBeCloseTo(10.65, 9);
    expect(turn).toMatchObject({ sessionId: 's1', createdAt: 5, inputTokens: 1_000_000, compaction: false });
  });

  it('keeps an unknown price unknown instead of $0', () => {
    const turn = priceUsageTurn(record({ model: 'local-llama' }), { provider: 'custom' }, HERMES_2026_04);
    expect(turn.costUsd).toBeNull();
    expect(turn.uncachedCostUsd).toBeNull();
  });

  it('falls back to the recorded cost when the table does not know the model', () => {
    const turn = priceUsageTurn(
      record({ model: 'x/y', costUsd: 0.42 }),
      { provider: 'openrouter' },
      HERMES_2026_04,
    );
    expect(turn.costUsd).toBe(0.42);
    expect(turn.uncachedCostUsd).toBeNull();
  });
});
