import { describe, expect, it } from 'vitest';
import {
  EMPTY_USAGE_TOTALS,
  knownCostUsd,
  lineageUsageTotals,
  sumUsageTurns,
} from '#core/usage/usage-totals.ts';
import { buildUsageTurn } from './usage-turn-builder.ts';

describe('sumUsageTurns', () => {
  it('is all zeros, complete and without a hit rate for no turns', () => {
    expect(sumUsageTurns([])).toEqual(EMPTY_USAGE_TOTALS);
  });

  it('counts a probe’s calls in the bill, apart from turns and compactions', () => {
    const totals = sumUsageTurns([
      buildUsageTurn({ inputTokens: 100, outputTokens: 10, costUsd: 0.01 }),
      buildUsageTurn({ inputTokens: 5000, outputTokens: 800, probe: true, costUsd: 0.03 }),
      buildUsageTurn({ inputTokens: 2000, outputTokens: 20, probe: true, costUsd: 0.007 }),
    ]);
    expect(totals).toMatchObject({
      turns: 1,
      compactionCalls: 0,
      compactionCostUsd: 0,
      probeCalls: 2,
      requestCount: 3,
    });
    expect(totals.probeCostUsd).toBeCloseTo(0.037, 12);
    expect(totals.costUsd).toBeCloseTo(0.047, 12);
  });

  it('sums every bucket and counts turns apart from summary requests', () => {
    const totals = sumUsageTurns([
      buildUsageTurn({
        inputTokens: 100,
        cacheWriteTokens: 900,
        outputTokens: 50,
        reasoningTokens: 5,
        costUsd: 0.01,
      }),
      buildUsageTurn({ inputTokens: 20, cacheReadTokens: 900, outputTokens: 40, costUsd: 0.002 }),
      buildUsageTurn({ inputTokens: 1200, outputTokens: 300, compaction: true, costUsd: 0.008 }),
    ]);
    expect(totals).toMatchObject({
      inputTokens: 1320,
      cacheReadTokens: 900,
      cacheWriteTokens: 900,
      outputTokens: 390,
      reasoningTokens: 5,
      requestCount: 3,
      promptTokens: 3120,
      turns: 2,
      compactionCalls: 1,
      costComplete: true,
    });
    expect(totals.costUsd).toBeCloseTo(0.02, 12);
    // The compactions' bill is the summary requests' cost alone.
    expect(totals.compactionCostUsd).toBe(0.008);
  });

  it('takes the hit rate of the sums, so a large turn weighs more than a small one', () => {
    const totals = sumUsageTurns([
      buildUsageTurn({ inputTokens: 10 }),
      buildUsageTurn({ inputTokens: 10, cacheReadTokens: 990 }),
    ]);
    expect(totals.cacheHitRate).toBeCloseTo(990 / 1010, 12);
  });

  it('marks the cost incomplete when a request had no price, and sums the known ones', () => {
    const totals = sumUsageTurns([buildUsageTurn({ costUsd: 0.5 }), buildUsageTurn({ costUsd: null })]);
    expect(totals.costComplete).toBe(false);
    expect(totals.costUsd).toBe(0.5);
    expect(totals.pricedTurns).toBe(1);
    expect(knownCostUsd(totals)).toBe(0.5);
  });

  it('knows no cost when no request had a price (an unpriced model is not free)', () => {
    const totals = sumUsageTurns([buildUsageTurn({ costUsd: null }), buildUsageTurn({ costUsd: null })]);
    expect([totals.costUsd, totals.costComplete, totals.pricedTurns]).toEqual([0, false, 0]);
    expect(knownCostUsd(totals)).toBeNull();
    // Nothing to price is $0, not unknown.
    expect(knownCostUsd(sumUsageTurns([]))).toBe(0);
  });

  it('adds up the savings of caching where both prices are known', () => {
    const totals = sumUsageTurns([
      buildUsageTurn({ costUsd: 0.01, uncachedCostUsd: 0.04 }),
      buildUsageTurn({ costUsd: 0.02, uncachedCostUsd: 0.015 }),
      buildUsageTurn({ costUsd: null, uncachedCostUsd: 1 }),
    ]);
    expect(totals.cacheSavingsUsd).toBeCloseTo(0.025, 12);
  });
});

describe('lineageUsageTotals', () => {
  it('totals the chain and each of its sessions in chain order, empty sessions included', () => {
    const turns = [
      buildUsageTurn({ sessionId: 'child', inputTokens: 5 }),
      buildUsageTurn({ sessionId: 'root', inputTokens: 100 }),
      buildUsageTurn({ sessionId: 'root', inputTokens: 50, compaction: true }),
    ];
    const result = lineageUsageTotals(turns, ['root', 'middle', 'child']);
    expect(result.total.inputTokens).toBe(155);
    expect(result.bySession.map((entry) => [entry.sessionId, entry.totals.inputTokens])).toEqual([
      ['root', 150],
      ['middle', 0],
      ['child', 5],
    ]);
    expect(result.bySession[0]?.totals.compactionCalls).toBe(1);
  });
});
