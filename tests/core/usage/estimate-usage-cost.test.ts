import { describe, expect, it } from 'vitest';
import { adapter } from '#cli/conformance/adapters/cost.ts';
import type { CanonicalUsage } from '#core/usage/canonical-usage.ts';
import { costUsdNumber, estimateUsageCost, resolveBillingRoute } from '#core/usage/estimate-usage-cost.ts';
import { hermesVectorRuns, runAdapter } from '../shared/load-hermes-vectors.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const usage = (overrides: Partial<CanonicalUsage>): CanonicalUsage => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  requestCount: 1,
  ...overrides,
});

describe('estimateUsageCost', () => {
  it.each(hermesVectorRuns('cost.json'))('matches the Hermes vector $name', (run) => {
    expect(runAdapter(adapter, run)).toEqual(run.expected);
  });

  it('prices the reference Sonnet 4 example at $5.2875', () => {
    const estimate = estimateUsageCost(
      'claude-sonnet-4-20250514',
      usage({
        inputTokens: 1_000_000,
        outputTokens: 100_000,
        cacheReadTokens: 2_000_000,
        cacheWriteTokens: 50_000,
      }),
      { provider: 'anthropic' },
      HERMES_2026_04,
    );
    expect(estimate.amountUsd).toBe('5.2875');
    expect(costUsdNumber(estimate)).toBeCloseTo(5.2875, 10);
  });

  it('reports a subscription route as included at zero', () => {
    const estimate = estimateUsageCost(
      'gpt-5.5',
      usage({ inputTokens: 10 }),
      { provider: 'openai-codex' },
      HERMES_2026_07,
    );
    expect(estimate).toMatchObject({ amountUsd: '0', status: 'included', label: 'included' });
  });

  it('is unknown when tokens land in a bucket without a price', () => {
    const estimate = estimateUsageCost(
      'gpt-4o',
      usage({ inputTokens: 10, cacheWriteTokens: 5 }),
      { provider: 'openai' },
      HERMES_2026_07,
    );
    expect(estimate).toMatchObject({ amountUsd: null, status: 'unknown', label: 'n/a' });
    expect(estimate.notes).toEqual(['cache-write pricing unavailable for route']);
  });

  it('ignores an unpriced bucket that has no tokens', () => {
    const estimate = estimateUsageCost(
      'gpt-4o',
      usage({ inputTokens: 1_000_000 }),
      { provider: 'openai' },
      HERMES_2026_04,
    );
    expect(estimate).toMatchObject({ amountUsd: '2.50', label: '~$2.50' });
  });

  it('cannot price OpenRouter offline (it needs the models API)', () => {
    const estimate = estimateUsageCost(
      'anthropic/claude-sonnet-4',
      usage({ inputTokens: 1 }),
      { provider: 'openrouter' },
      HERMES_2026_07,
    );
    expect(estimate.status).toBe('unknown');
    expect(estimate.route.billingMode).toBe('official_models_api');
    expect(costUsdNumber(estimate)).toBe(0);
  });
});

describe('resolveBillingRoute', () => {
  it('infers the provider from a vendor prefix when none is given', () => {
    expect(resolveBillingRoute('openai/gpt-4o', '', '', HERMES_2026_07)).toEqual({
      provider: 'openai',
      model: 'gpt-4o',
      baseUrl: '',
      billingMode: 'official_docs_snapshot',
    });
  });

  it('treats localhost endpoints as unknown pricing', () => {
    expect(resolveBillingRoute('llama', '', 'http://localhost:11434/v1', HERMES_2026_04).billingMode).toBe(
      'unknown',
    );
  });
});
