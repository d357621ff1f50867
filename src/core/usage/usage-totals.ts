import { cacheHitRate } from './cache-hit-rate.ts';
import type { UsageTurn } from './usage-turn.ts';

/** Sums over some usage turns: a session, a whole lineage, or one segment of it. */
export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  requestCount: number;
  /** Uncached input + cache reads + cache writes. */
  promptTokens: number;
  /** Conversation turns: responses that were neither a compaction's summary request nor a probe's call. */
  turns: number;
  /** Summary requests of compactions. */
  compactionCalls: number;
  /** What those summary requests cost, USD (known prices only): the compactions' summariser bill. */
  compactionCostUsd: number;
  /** Calls of replay probes (their summariser calls and questions). */
  probeCalls: number;
  /** What those calls cost, USD (known prices only). */
  probeCostUsd: number;
  /** The sum of the known costs, USD. */
  costUsd: number;
  /** False when some request had no price: `costUsd` is then a lower bound. */
  costComplete: boolean;
  /** Turns with a known price; 0 with some turns means the cost is unknown, not $0. */
  pricedTurns: number;
  /**
   * What caching saved, USD: Σ (cost with every cached token billed as input − actual cost) over
   * the requests where both are known. Negative when cache writes cost more than reads saved.
   */
  cacheSavingsUsd: number;
  /** Cache reads over all prompt tokens, null when nothing was read. */
  cacheHitRate: number | null;
}

export const EMPTY_USAGE_TOTALS: Readonly<UsageTotals> = Object.freeze({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  reasoningTokens: 0,
  requestCount: 0,
  promptTokens: 0,
  turns: 0,
  compactionCalls: 0,
  compactionCostUsd: 0,
  probeCalls: 0,
  probeCostUsd: 0,
  costUsd: 0,
  costComplete: true,
  pricedTurns: 0,
  cacheSavingsUsd: 0,
  cacheHitRate: null,
});

/**
 * Field-wise sums of usage turns, with the overall cache hit rate (a ratio of the sums, not a mean
 * of per-turn rates: a 100-token turn must not weigh as much as a 100K-token one).
 *
 * @example sumUsageTurns(events).cacheHitRate // 0.82
 */
export function sumUsageTurns(turns: readonly UsageTurn[]): UsageTotals {
  const totals = { ...EMPTY_USAGE_TOTALS };
  for (const turn of turns) {
    totals.inputTokens += turn.inputTokens;
    totals.outputTokens += turn.outputTokens;
    totals.cacheReadTokens += turn.cacheReadTokens;
    totals.cacheWriteTokens += turn.cacheWriteTokens;
    totals.reasoningTokens += turn.reasoningTokens;
    totals.requestCount += turn.requestCount;
    if (turn.probe) {
      totals.probeCalls += 1;
      if (turn.costUsd !== null) totals.probeCostUsd += turn.costUsd;
    } else if (turn.compaction) {
      totals.compactionCalls += 1;
      if (turn.costUsd !== null) totals.compactionCostUsd += turn.costUsd;
    } else totals.turns += 1;
    if (turn.costUsd === null) totals.costComplete = false;
    else {
      totals.costUsd += turn.costUsd;
      totals.pricedTurns += 1;
    }
    if (turn.costUsd !== null && turn.uncachedCostUsd !== null) {
      totals.cacheSavingsUsd += turn.uncachedCostUsd - turn.costUsd;
    }
  }
  totals.promptTokens = totals.inputTokens + totals.cacheReadTokens + totals.cacheWriteTokens;
  totals.cacheHitRate = cacheHitRate(totals);
  return totals;
}

export interface LineageUsageTotals {
  /** The whole chain. */
  total: UsageTotals;
  /** One entry per session of the chain, root first; a session without usage has zero totals. */
  bySession: Array<{ sessionId: string; totals: UsageTotals }>;
}

/**
 * Totals of a continuation chain and of each of its sessions. Turns of sessions outside
 * `sessionIds` still count in `total` (the caller asked for them) but get no entry of their own.
 */
export function lineageUsageTotals(
  turns: readonly UsageTurn[],
  sessionIds: readonly string[],
): LineageUsageTotals {
  const bySessionId = new Map<string, UsageTurn[]>(sessionIds.map((id) => [id, []]));
  for (const turn of turns) bySessionId.get(turn.sessionId)?.push(turn);
  return {
    total: sumUsageTurns(turns),
    bySession: sessionIds.map((sessionId) => ({
      sessionId,
      totals: sumUsageTurns(bySessionId.get(sessionId) ?? []),
    })),
  };
}

/** What a sum of turns cost, for labels: unknown (null) when none of them had a price. */
export const knownCostUsd = (
  totals: Pick<UsageTotals, 'costUsd' | 'costComplete' | 'pricedTurns'>,
): number | null => (totals.costComplete || totals.pricedTurns > 0 ? totals.costUsd : null);
