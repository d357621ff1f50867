import { describe, expect, it } from 'vitest';
import { estimateProbeCost, type ProbeReplayFigures } from '#core/probe/estimate-probe-cost.ts';
import { probeFactMessages, probeQuestion } from '#core/probe/probe-messages.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { estimateTokensRough } from '#core/tokens/estimate-tokens-rough.ts';
import { messageText } from '#core/transcript/message.ts';

/** The replay's compaction: one summariser call of 9,000 prompt tokens writing 1,500, 25,000 tokens after. */
const replay: ProbeReplayFigures = {
  summaryCalls: 1,
  summaryInputTokens: 9_000,
  summaryOutputTokens: 1_500,
  tokensAfter: 25_000,
};

describe('estimateProbeCost', () => {
  it('repeats the replay’s summariser calls with the facts added, plus the question, priced from the table', () => {
    const estimate = estimateProbeCost({
      count: 2,
      replay,
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
    expect(estimate.summaryInputTokens).toBe(9_000 + planted);
    expect(estimate.summaryOutputTokens).toBe(1_500);
    expect(estimate.questionInputTokens).toBe(
      25_000 + planted + estimateTokensRough(probeQuestion(['P1', 'P2'])) + 4,
    );
    // $3 per million input, $15 per million output (the 2026-04 snapshot for Sonnet 4).
    const input = estimate.summaryInputTokens + estimate.questionInputTokens;
    const output = estimate.summaryOutputTokens + estimate.questionOutputTokens;
    expect(estimate.usd).toBeCloseTo((input * 3 + output * 15) / 1_000_000, 9);
  });

  it('says price unknown (null) for a model the table does not know, never $0', () => {
    const estimate = estimateProbeCost({
      count: 5,
      replay,
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
      replay: { ...replay, summaryCalls: 0 },
      mainModel: 'claude-sonnet-4-20250514',
      summaryModel: 'claude-sonnet-4-20250514',
      route: { provider: 'anthropic', baseUrl: '' },
      preset: HERMES_2026_04,
    });
    expect([estimate.summaryCalls, estimate.calls, estimate.summaryInputTokens]).toEqual([0, 1, 0]);
  });
});
