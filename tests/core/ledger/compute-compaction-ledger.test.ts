import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';
import { describe, expect, it } from 'vitest';
import type { CompactionCacheFigures } from '#core/ledger/compaction-cache-figures.ts';
import {
  computeCompactionLedger,
  type CompactionLedgerInput,
} from '#core/ledger/compute-compaction-ledger.ts';
import type { CanonicalUsage } from '#core/usage/canonical-usage.ts';

const usage = (inputTokens: number, outputTokens: number): CanonicalUsage => ({
  inputTokens,
  outputTokens,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  requestCount: 1,
});

const figures = (overrides: Partial<CompactionCacheFigures> = {}): CompactionCacheFigures => ({
  tokensBefore: 150_000,
  tokensAfter: 30_000,
  cachedTokensBefore: 150_000,
  cachedTokensAfter: 5_000,
  rewriteTokens: 25_000,
  source: 'usage',
  ...overrides,
});

/** claude-sonnet-4-6 under the 2026-07 snapshot: $3 input, $15 output, $0.30 cache read, $3.75 5m write (per million). */
const sonnet = (overrides: Partial<CompactionLedgerInput> = {}): CompactionLedgerInput => ({
  model: 'claude-sonnet-4-6',
  route: { provider: 'anthropic' },
  preset: HERMES_2026_07,
  summaryUsage: usage(145_000, 2_000),
  cache: figures(),
  cacheTtl: '5m',
  ...overrides,
});

const noCaching = { cachedTokensBefore: 0, cachedTokensAfter: 0, rewriteTokens: 0 };

describe('computeCompactionLedger', () => {
  it('matches the worked example computed by hand (5-minute cache)', () => {
    // 150,000 tokens, all cached, compacted to 30,000: 5,000 (tools + system) still cached,
    // 25,000 (summary + kept tail) written again.
    // summary:   145,000 × $3/M + 2,000 × $15/M          = 0.435 + 0.03   = $0.465
    // rewrite:    25,000 × $3.75/M                        = $0.09375
    // cost:       0.465 + 0.09375                         = $0.55875
    // later turn without compaction: 150,000 × $0.30/M   = $0.045
    // later turn with it: (5,000 + 25,000) × $0.30/M      = $0.009  → saved $0.036 per turn
    // first turn with it: 5,000 × $0.30/M (25,000 written) = $0.0015 → saved $0.0435
    // break-even: 0.0435 + (n − 1) × 0.036 ≥ 0.55875 ⇔ n − 1 ≥ 14.3125 ⇔ n = 16
    //   (turn 15: 0.0435 + 14 × 0.036 = 0.5475 < 0.55875; turn 16: 0.5835 ≥ 0.55875)
    expect(computeCompactionLedger(sonnet())).toEqual({
      summaryInputTokens: 145_000,
      summaryOutputTokens: 2_000,
      summaryUsd: 0.465,
      cacheRewriteTokens: 25_000,
      cacheRewriteUsd: 0.09375,
      savedTokensPerTurn: 120_000,
      savedUsdPerTurn: 0.036,
      firstTurnSavedUsd: 0.0435,
      costUsd: 0.55875,
      breakEvenTurn: 16,
      priced: true,
      notes: [],
    });
  });

  it('bills a 1-hour rewrite at 2× input', () => {
    // rewrite: 25,000 × $6/M = $0.15; cost 0.615; (0.615 − 0.0435) / 0.036 = 15.875 → 16 more turns → turn 17.
    expect(computeCompactionLedger(sonnet({ cacheTtl: '1h' }))).toMatchObject({
      cacheRewriteUsd: 0.15,
      costUsd: 0.615,
      breakEvenTurn: 17,
    });
  });

  it('saves plain input on every later turn without caching', () => {
    // saved: 120,000 × $3/M = $0.36 per turn, first turn too; 0.36 < 0.465 ≤ 0.72 → turn 2.
    expect(computeCompactionLedger(sonnet({ cache: figures(noCaching) }))).toMatchObject({
      cacheRewriteTokens: 0,
      cacheRewriteUsd: 0,
      savedUsdPerTurn: 0.36,
      firstTurnSavedUsd: 0.36,
      costUsd: 0.465,
      breakEvenTurn: 2,
    });
  });

  it('breaks even on the first turn when that turn alone pays the summary', () => {
    // summary: 10,000 × $3/M + 500 × $15/M = $0.0375 ≤ $0.36 saved on the first turn.
    expect(
      computeCompactionLedger(sonnet({ summaryUsage: usage(10_000, 500), cache: figures(noCaching) }))
        .breakEvenTurn,
    ).toBe(1);
  });

  it('prices the summariser with its own model', () => {
    // claude-haiku-4-5: $1 input, $5 output. summary: 0.145 + 0.01 = $0.155; cost 0.155 + 0.09375 = 0.24875;
    // (0.24875 − 0.0435) / 0.036 = 5.70… → 6 more turns → turn 7.
    expect(computeCompactionLedger(sonnet({ summaryModel: 'claude-haiku-4-5' }))).toMatchObject({
      summaryUsd: 0.155,
      costUsd: 0.24875,
      breakEvenTurn: 7,
    });
  });

  it('costs only the rewrite when no summariser was called', () => {
    // cost $0.09375; (0.09375 − 0.0435) / 0.036 = 1.39… → 2 more turns → turn 3.
    expect(computeCompactionLedger(sonnet({ summaryUsage: null }))).toMatchObject({
      summaryInputTokens: 0,
      summaryOutputTokens: 0,
      summaryUsd: 0,
      costUsd: 0.09375,
      breakEvenTurn: 3,
    });
  });

  it('counts the summariser’s cache reads and writes as its prompt', () => {
    const cached: CanonicalUsage = {
      ...usage(1_000, 2_000),
      cacheReadTokens: 100_000,
      cacheWriteTokens: 4_000,
    };
    // 1,000 × 3 + 2,000 × 15 + 100,000 × 0.30 + 4,000 × 3.75 = 3,000 + 30,000 + 30,000 + 15,000 → $0.078
    expect(computeCompactionLedger(sonnet({ summaryUsage: cached }))).toMatchObject({
      summaryInputTokens: 105_000,
      summaryUsd: 0.078,
    });
  });

  it('says price unknown and gives null, never 0, for an unpriced model', () => {
    const ledger = computeCompactionLedger(
      sonnet({ model: 'llama-3-70b', route: { provider: 'custom', baseUrl: 'http://localhost:8080/v1' } }),
    );
    expect(ledger).toEqual({
      summaryInputTokens: 145_000,
      summaryOutputTokens: 2_000,
      summaryUsd: null,
      cacheRewriteTokens: 25_000,
      cacheRewriteUsd: null,
      savedTokensPerTurn: 120_000,
      savedUsdPerTurn: null,
      firstTurnSavedUsd: null,
      costUsd: null,
      breakEvenTurn: null,
      priced: false,
      notes: ['llama-3-70b: price unknown'],
    });
  });

  it('keeps the known figures when only the summariser is unpriced', () => {
    expect(
      computeCompactionLedger(
        sonnet({
          summaryModel: 'llama-3-70b',
          summaryRoute: { provider: 'custom', baseUrl: 'http://localhost:8080' },
        }),
      ),
    ).toMatchObject({
      summaryUsd: null,
      cacheRewriteUsd: 0.09375,
      savedUsdPerTurn: 0.036,
      costUsd: null,
      breakEvenTurn: null,
      priced: false,
      notes: ['llama-3-70b: price unknown'],
    });
  });

  it('bills cache writes as plain input where the provider has no write price (OpenAI)', () => {
    // gpt-4o: $2.50 input, $10 output, $1.25 cached input, no write price.
    // summary: 80,000 × 2.5 + 1,000 × 10 → $0.21; rewrite: 20,000 × 2.5 → $0.05; cost $0.26.
    // without: 90,000 × 1.25 + 10,000 × 2.5 = $0.1375; later with: 20,000 × 1.25 = $0.025 → saved $0.1125;
    // first with: 0 → saved $0.1375; (0.26 − 0.1375) / 0.1125 = 1.08… → 2 more turns → turn 3.
    const ledger = computeCompactionLedger({
      model: 'gpt-4o',
      route: { provider: 'openai' },
      preset: HERMES_2026_07,
      summaryUsage: usage(80_000, 1_000),
      cache: figures({
        tokensBefore: 100_000,
        tokensAfter: 20_000,
        cachedTokensBefore: 90_000,
        cachedTokensAfter: 0,
        rewriteTokens: 20_000,
      }),
      cacheTtl: '5m',
    });
    expect(ledger).toMatchObject({
      summaryUsd: 0.21,
      cacheRewriteUsd: 0.05,
      savedUsdPerTurn: 0.1125,
      firstTurnSavedUsd: 0.1375,
      breakEvenTurn: 3,
      notes: ['cache writes billed as plain input'],
    });
  });

  it('falls back to the list price for a model outside Hermes’ snapshot, and says so', () => {
    // gpt-5: $1.25 input, $10 output. summary 40,000 × 1.25 + 1,000 × 10 → $0.06; saved 40,000 × 1.25 → $0.05 → turn 2.
    const ledger = computeCompactionLedger({
      model: 'gpt-5',
      route: { provider: 'openai' },
      preset: HERMES_2026_07,
      summaryUsage: usage(40_000, 1_000),
      cache: figures({ tokensBefore: 50_000, tokensAfter: 10_000, ...noCaching }),
      cacheTtl: '5m',
    });
    expect(ledger).toMatchObject({ summaryUsd: 0.06, savedUsdPerTurn: 0.05, breakEvenTurn: 2, priced: true });
    expect(ledger.notes).toEqual(["gpt-5: list price (not in Hermes' price snapshot)"]);
  });

  it('cannot price cached turns without a cache-read price', () => {
    const ledger = computeCompactionLedger(
      sonnet({ model: 'deepseek-chat', route: { provider: 'deepseek' } }),
    );
    expect(ledger).toMatchObject({
      savedUsdPerTurn: null,
      cacheRewriteUsd: null,
      breakEvenTurn: null,
      priced: false,
    });
    expect(ledger.notes).toContain('cache-read price unknown');
  });

  it('never breaks even when the compaction made the context larger', () => {
    const ledger = computeCompactionLedger(
      sonnet({ cache: figures({ tokensBefore: 30_000, tokensAfter: 31_000, ...noCaching }) }),
    );
    expect(ledger).toMatchObject({
      savedTokensPerTurn: -1_000,
      savedUsdPerTurn: -0.003,
      breakEvenTurn: null,
    });
    expect(ledger.notes).toEqual(['the compaction made the context larger']);
  });

  it('costs nothing on a subscription route', () => {
    const ledger = computeCompactionLedger(
      sonnet({ model: 'gpt-5.1-codex', route: { provider: 'openai-codex' } }),
    );
    expect(ledger).toMatchObject({ summaryUsd: 0, cacheRewriteUsd: 0, savedUsdPerTurn: 0, breakEvenTurn: 1 });
    expect(ledger.notes).toEqual(['gpt-5.1-codex: included in the subscription']);
  });
});
