import type { CanonicalUsage } from './canonical-usage.ts';

/**
 * One provider response's usage as the usage panel reads it: the canonical buckets plus where and
 * when it happened and what it cost. Stored usage events have this shape already.
 */
export interface UsageTurn extends CanonicalUsage {
  sessionId: string;
  /** Epoch milliseconds. */
  createdAt: number;
  model: string;
  /** USD; null when the price table does not know the model (shown as `n/a`, never as $0). */
  costUsd: number | null;
  /**
   * What the same request would have cost with every cached token billed as plain input; null
   * when unknown. The difference to `costUsd` is what prompt caching saved (or, when negative,
   * what cache writes cost on top).
   */
  uncachedCostUsd: number | null;
  /** The summariser's request of a compaction, not a conversation turn. */
  compaction: boolean;
  /** The compaction attempt a summariser request belonged to, when recorded. */
  compactionId?: string | null;
  /** A call of a replay's probe mode: billed, but neither a conversation turn nor a compaction. */
  probe?: boolean;
}
