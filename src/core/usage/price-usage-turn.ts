import type { Preset } from '../presets/preset.ts';
import type { CanonicalUsage } from './canonical-usage.ts';
import { costUsdNumber, estimateUsageCost, type CostRoute } from './estimate-usage-cost.ts';
import type { UsageTurn } from './usage-turn.ts';
import { usageWithoutCache } from './usage-without-cache.ts';

/** A usage record as stored: the cost is a plain number, 0 whether free or unpriced. */
export interface RecordedUsage extends CanonicalUsage {
  sessionId: string;
  createdAt: number;
  model: string;
  costUsd: number;
  compaction: boolean;
  compactionId?: string | null;
  probe?: boolean;
}

/**
 * A stored usage record priced for the ledger with the built-in price table (hermes-reference
 * §9): the cost, and the cost had nothing been cached. The stored cost stands in when the table
 * does not know the model but the recorder did price it; otherwise an unknown price stays null
 * rather than becoming $0.
 */
export function priceUsageTurn(record: RecordedUsage, route: CostRoute, preset: Preset): UsageTurn {
  const estimate = estimateUsageCost(record.model, record, route, preset);
  const uncached = estimateUsageCost(record.model, usageWithoutCache(record), route, preset);
  const fallback = record.costUsd > 0 ? record.costUsd : null;
  return {
    sessionId: record.sessionId,
    createdAt: record.createdAt,
    model: record.model,
    inputTokens: record.inputTokens,
    outputTokens: record.outputTokens,
    cacheReadTokens: record.cacheReadTokens,
    cacheWriteTokens: record.cacheWriteTokens,
    reasoningTokens: record.reasoningTokens,
    requestCount: record.requestCount,
    costUsd: estimate.amountUsd === null ? fallback : costUsdNumber(estimate),
    uncachedCostUsd:
      estimate.amountUsd === null || uncached.amountUsd === null ? null : costUsdNumber(uncached),
    compaction: record.compaction,
    ...(record.compactionId ? { compactionId: record.compactionId } : {}),
    ...(record.probe ? { probe: true } : {}),
  };
}
