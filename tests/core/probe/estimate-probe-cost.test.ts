import { describe, expect, it } from 'vitest';
import { estimateProbeCost, type ProbePlanFigures } from '#core/probe/estimate-probe-cost.ts';
import { probeFactMessages, probeQuestion } from '#core/probe/probe-messages.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { estimateTokensRough } from '#core/tokens/estimate-tokens-rough.ts';
import { messageText } from '#core/transcript/message.ts';

const plan: ProbePlanFigures = {
  summaries: [{ start: 3, end: 40, kind: 'middle' }],
  fateTotals: {
    kept: { tokens: 20_000 },
    pruned: { tokens: 0 },
    summarized: { tokens: 60_000 },
    dropped: { tokens: 0 },
  },
  after: { tokens: 25_000, summaryTokens: 3_000 },
  toolsTokens: 1_000,
};

describe('estimateProbeCost', () => {
  it('counts one summariser call per planned summary plus the question, priced from the table', () => {
    const estimate = estimateProbeCost({
      count: 2,
      plan,
      mainModel: 'claude-sonnet-4-20250514',
      summaryModel: 'claude-sonnet-4-20250514',
      route: { provider: 'anthropic', baseUrl: '' },
      preset: HERMES_2026_04,
    });
    const pair = (label: string): number =>
      probeFactMessages(label, 'frosted-glacier-4821').reduce(
        (sum, message) => sum + estimateTokensRough(messageText(message)) + 4,
        0,
      );
    const planted = pair('P1') + pair('P2');
    expect(estimate.summaryCalls).toBe(1);
    expect(estimate.calls).toBe(2);
    expect(estimate.summaryInputTokens).toBe(60_000 + planted);
    expect(estimate.summaryOutputTokens).toBe(3_000);
    expect(estimate.questionInputTokens).toBe(
      24_000 + planted + estimateTokensRough(probeQuestion(['P1', 'P2'])) + 4,
    );
    // $3 per million input, $15 per million output (the 2026-04 snapshot for Sonnet 4).
    const input = estimate.summaryInputTokens + estimate.questionInputTokens;
    const output = estimate.summaryOutputTokens + estimate.questionOutputTokens;
    expect(estimate.usd).toBeCloseTo((input * 3 + output * 15) / 1_000_000, 9);
  });

  it('says price unknown (null) for a model the table does not know, never $0', () => {
    const estimate = estimateProbeCost({
      count: 5,
      plan,
      mainModel: 'mock-model-x',
      summaryModel: 'mock-model-x',
      route: { provider: 'custom', baseUrl: 'http://127.0.0.1:9' },
      preset: HERMES_2026_04,
    });
    expect(estimate.usd).toBeNull();
  });

  it('plans no summariser call for a strategy that only drops', () => {
    const estimate = estimateProbeCost({
      count: 1,
      plan: { ...plan, summaries: [] },
      mainModel: 'claude-sonnet-4-20250514',
      summaryModel: 'claude-sonnet-4-20250514',
      route: { provider: 'anthropic', baseUrl: '' },
      preset: HERMES_2026_04,
    });
    expect([estimate.summaryCalls, estimate.calls, estimate.summaryInputTokens]).toEqual([0, 1, 0]);
  });
});
