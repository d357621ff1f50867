/**
 * The usage panel's ledger table (issue 13 §5): one row per compaction of a conversation and its
 * chain, from the epochs' stored ledgers, plus a row for every compaction attempt that was billed
 * but never applied (a discarded review, a refused or aborted compaction), from its usage
 * records. The billed summariser dollars of the rows add up to what the usage records of
 * summariser calls cost: the compaction cost the panel shows.
 */
import type { CompactionReason } from '../strategies/compact-conversation.ts';
import type { CompactionEpoch, EpochStatus } from '../sessions/compaction-epoch.ts';
import type { UsageTurn } from './usage-turn.ts';

export interface CompactionLedgerRow {
  readonly key: string;
  /** The epoch's number in its conversation; null for an attempt that was not applied. */
  readonly epochNumber: number | null;
  readonly status: EpochStatus | 'not-applied';
  readonly reason: CompactionReason | null;
  readonly sessionId: string;
  readonly createdAt: number;
  readonly summaryInputTokens: number;
  readonly summaryOutputTokens: number;
  /** null when the price is unknown. */
  readonly summaryUsd: number | null;
  /**
   * The summariser call was billed (its usage is recorded) and counts toward the compaction cost;
   * false for a replay's counted estimate.
   */
  readonly billed: boolean;
  /** Null where the row has no ledger (an attempt not applied). */
  readonly cacheRewriteTokens: number | null;
  readonly cacheRewriteUsd: number | null;
  readonly savedTokensPerTurn: number | null;
  readonly savedUsdPerTurn: number | null;
  readonly breakEvenTurn: number | null;
}

export interface CompactionLedgerTable {
  /** Oldest first. */
  readonly rows: readonly CompactionLedgerRow[];
  /** Σ of the billed rows' summariser dollars (known prices only). */
  readonly billedSummaryUsd: number;
  /** False when a billed row's price is unknown: the sum is then a lower bound. */
  readonly complete: boolean;
}

/**
 * The ledger rows of a conversation's epochs and its usage records.
 *
 * @example compactionLedgerRows(epochs, turns).billedSummaryUsd // = Σ cost of the summary turns
 */
export function compactionLedgerRows(
  epochs: readonly CompactionEpoch[],
  turns: readonly UsageTurn[],
): CompactionLedgerTable {
  const summaryTurns = turns.filter((turn) => turn.compaction);
  const epochAttempts = new Set(epochs.flatMap((epoch) => (epoch.attemptId ? [epoch.attemptId] : [])));
  const rows: CompactionLedgerRow[] = epochs.map((epoch) => {
    const ledger = epoch.assessment?.ledger ?? null;
    const billed =
      epoch.attemptId !== null && summaryTurns.some((turn) => turn.compactionId === epoch.attemptId);
    return {
      key: `epoch-${epoch.id}`,
      epochNumber: epoch.number,
      status: epoch.status,
      reason: epoch.reason,
      sessionId: epoch.sessionId,
      createdAt: epoch.createdAt,
      summaryInputTokens: ledger?.summaryInputTokens ?? 0,
      summaryOutputTokens: ledger?.summaryOutputTokens ?? 0,
      summaryUsd: ledger?.summaryUsd ?? null,
      billed,
      cacheRewriteTokens: ledger?.cacheRewriteTokens ?? null,
      cacheRewriteUsd: ledger?.cacheRewriteUsd ?? null,
      savedTokensPerTurn: ledger?.savedTokensPerTurn ?? null,
      savedUsdPerTurn: ledger?.savedUsdPerTurn ?? null,
      breakEvenTurn: ledger?.breakEvenTurn ?? null,
    };
  });
  // Summariser calls no applied epoch accounts for, one row per attempt (or per call when the
  // record predates attempt ids).
  const unapplied = new Map<string, UsageTurn[]>();
  summaryTurns.forEach((turn, index) => {
    if (turn.compactionId && epochAttempts.has(turn.compactionId)) return;
    const key = turn.compactionId ?? `call-${index}`;
    unapplied.set(key, [...(unapplied.get(key) ?? []), turn]);
  });
  for (const [key, calls] of unapplied) {
    const first = calls[0]!;
    rows.push({
      key: `attempt-${key}`,
      epochNumber: null,
      status: 'not-applied',
      reason: null,
      sessionId: first.sessionId,
      createdAt: first.createdAt,
      summaryInputTokens: calls.reduce(
        (sum, call) => sum + call.inputTokens + call.cacheReadTokens + call.cacheWriteTokens,
        0,
      ),
      summaryOutputTokens: calls.reduce((sum, call) => sum + call.outputTokens, 0),
      summaryUsd: calls.some((call) => call.costUsd === null)
        ? null
        : calls.reduce((sum, call) => sum + call.costUsd!, 0),
      billed: true,
      cacheRewriteTokens: null,
      cacheRewriteUsd: null,
      savedTokensPerTurn: null,
      savedUsdPerTurn: null,
      breakEvenTurn: null,
    });
  }
  rows.sort((first, second) => first.createdAt - second.createdAt);
  let billedSummaryUsd = 0;
  let complete = true;
  for (const row of rows) {
    if (!row.billed) continue;
    if (row.summaryUsd === null) complete = false;
    else billedSummaryUsd += row.summaryUsd;
  }
  return { rows, billedSummaryUsd, complete };
}
