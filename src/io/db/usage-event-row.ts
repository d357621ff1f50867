/** One API response's usage, in canonical buckets, for the per-turn usage chart. */
export interface UsageEventRow {
  id?: number;
  sessionId: string;
  createdAt: number;
  model: string;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  requestCount: number;
  costUsd: number;
  /** The call was a compaction's summary request, not a conversation turn. */
  compaction: boolean;
  /**
   * v3: the compaction attempt a summary call belonged to, so the usage panel's ledger can tell
   * which calls a committed epoch paid for and which a discarded review or refused compaction did.
   */
  compactionId?: string | null;
  /** The call was one of a replay's probe (ROUND2 §3 probe mode): billed, but neither a turn nor a compaction. */
  probe?: boolean;
}
