import { describe, expect, it } from 'vitest';
import type { CompactionEpoch } from '#core/sessions/compaction-epoch.ts';
import { compactionLedgerRows } from '#core/usage/compaction-ledger-rows.ts';
import { buildUsageTurn } from './usage-turn-builder.ts';
import { IN_PLACE_EPOCH_SETTINGS } from '#tests/helpers/epoch-settings-fixture.ts';

/** An epoch whose ledger says its summary call cost `summaryUsd`; everything else is filler. */
function epoch(
  id: number,
  attemptId: string | null,
  summaryUsd: number | null,
  createdAt: number,
): CompactionEpoch {
  return {
    id,
    number: id,
    sessionId: 's1',
    childSessionId: null,
    mode: 'in-place',
    status: 'applied',
    createdAt,
    changedAt: createdAt,
    reason: 'manual',
    attemptId,
    reviewed: false,
    summaries: [],
    boundaries: {
      messagesBefore: 10,
      messagesAfter: 4,
      head: 2,
      middle: 6,
      tail: 2,
      kept: 4,
      pruned: 0,
      summarized: 6,
      dropped: 0,
      spans: [],
    },
    settings: { ...IN_PLACE_EPOCH_SETTINGS, summarizer: 'Anthropic' },
    tokensBefore: 1000,
    tokensAfter: 400,
    assessment: {
      fidelity: { score: 1, total: 0, survived: 0, byKind: {} as never, lost: [] },
      ledger: {
        summaryInputTokens: 900,
        summaryOutputTokens: 100,
        summaryUsd,
        cacheRewriteTokens: 300,
        cacheRewriteUsd: 0.001,
        savedTokensPerTurn: 600,
        savedUsdPerTurn: 0.0002,
        firstTurnSavedUsd: 0.0003,
        costUsd: summaryUsd === null ? null : summaryUsd + 0.001,
        breakEvenTurn: 20,
        priced: summaryUsd !== null,
        notes: [],
      },
      cache: {
        tokensBefore: 1000,
        tokensAfter: 400,
        cachedTokensBefore: 900,
        cachedTokensAfter: 100,
        rewriteTokens: 300,
        source: 'usage',
      },
      missingPins: [],
      summaryMeasured: true,
    },
  };
}

describe('compactionLedgerRows', () => {
  it('gives each epoch its ledger row and each billed attempt that was not applied a row of its own', () => {
    const turns = [
      buildUsageTurn({ createdAt: 1, costUsd: 0.05 }),
      buildUsageTurn({
        createdAt: 2,
        compaction: true,
        compactionId: 'a1',
        costUsd: 0.004,
        inputTokens: 900,
        outputTokens: 100,
      }),
      buildUsageTurn({
        createdAt: 3,
        compaction: true,
        compactionId: 'discarded',
        costUsd: 0.003,
        inputTokens: 800,
        cacheReadTokens: 50,
        outputTokens: 90,
      }),
      buildUsageTurn({
        createdAt: 4,
        compaction: true,
        compactionId: null,
        costUsd: 0.002,
        outputTokens: 10,
      }),
    ];
    const table = compactionLedgerRows([epoch(1, 'a1', 0.004, 2)], turns);
    expect(table.rows.map((row) => [row.epochNumber, row.status, row.billed, row.summaryUsd])).toEqual([
      [1, 'applied', true, 0.004],
      [null, 'not-applied', true, 0.003],
      [null, 'not-applied', true, 0.002],
    ]);
    expect(table.rows[1]).toMatchObject({
      summaryInputTokens: 850,
      summaryOutputTokens: 90,
      breakEvenTurn: null,
    });
    expect(table.rows[0]).toMatchObject({
      cacheRewriteTokens: 300,
      savedTokensPerTurn: 600,
      breakEvenTurn: 20,
    });
    // 0.004 + 0.003 + 0.002: every summary call's cost, and no conversation turn's.
    expect(table.billedSummaryUsd).toBeCloseTo(0.009, 12);
    expect(table.complete).toBe(true);
  });

  it('leaves a replay’s counted estimate out of the billed sum', () => {
    const table = compactionLedgerRows([epoch(1, null, 0.01, 1)], []);
    expect(table.rows[0]!.billed).toBe(false);
    expect(table.billedSummaryUsd).toBe(0);
  });

  it('says the sum is a lower bound when a billed price is unknown', () => {
    const table = compactionLedgerRows(
      [epoch(1, 'a1', null, 1)],
      [buildUsageTurn({ compaction: true, compactionId: 'a1', costUsd: null })],
    );
    expect(table.complete).toBe(false);
  });
});
