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

  describe('a subscription-included route (openai-codex), both generations', () => {
    const included = (model: string, baseUrl = '') => ({
      amountUsd: '0',
      status: 'included',
      source: 'none',
      label: 'included',
      route: { provider: 'openai-codex', model, baseUrl, billingMode: 'subscription_included' },
      prices: { input: '0', output: '0', cacheRead: '0', cacheWrite: '0', source: 'none' },
      pricingVersion: 'included-route',
      notes: [],
    });

    it.each([HERMES_2026_04, HERMES_2026_07])('is the whole included result under $name', (preset) => {
      const estimate = estimateUsageCost(
        'gpt-5.5',
        usage({ inputTokens: 10, outputTokens: 4, cacheReadTokens: 3, cacheWriteTokens: 2 }),
        { provider: 'openai-codex' },
        preset,
      );
      expect(estimate).toEqual(included('gpt-5.5'));
    });

    it.each([HERMES_2026_04, HERMES_2026_07])(
      'costs nothing at no usage and at huge usage ($name)',
      (preset) => {
        for (const tokens of [0, 5_000_000_000]) {
          const estimate = estimateUsageCost(
            'gpt-5.4',
            usage({ inputTokens: tokens }),
            { provider: 'openai-codex' },
            preset,
          );
          expect(estimate).toEqual(included('gpt-5.4'));
        }
      },
    );

    it('normalises the provider name but keeps the model id whole, and reports the base URL', () => {
      const estimate = estimateUsageCost(
        ' openai/gpt-5.5 ',
        usage({ inputTokens: 1 }),
        { provider: ' OpenAI-Codex ', baseUrl: 'https://chatgpt.com/backend-api/codex' },
        HERMES_2026_07,
      );
      expect(estimate).toEqual(included('openai/gpt-5.5', 'https://chatgpt.com/backend-api/codex'));
    });

    it('is not inferred from a model prefix without a provider', () => {
      const estimate = estimateUsageCost(
        'openai-codex/gpt-5.5',
        usage({ inputTokens: 1 }),
        { provider: '' },
        HERMES_2026_07,
      );
      expect(estimate.route.billingMode).toBe('unknown');
      expect(estimate.status).toBe('unknown');
    });
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
