/**
 * A stored session. Times are epoch milliseconds. Token accumulators are per-session sums of
 * canonical usage buckets. Not a domain type: `row-mappers.ts` converts at the edge.
 */
export interface SessionRow {
  id: string;
  title: string | null;
  /** Where it came from: 'chat', 'import', 'demo', 'replay'. */
  source: string;
  model: string | null;
  parentSessionId: string | null;
  startedAt: number;
  endedAt: number | null;
  endReason: string | null;
  systemPrompt: string | null;
  compressionCount: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  apiCallCount: number;
  estimatedCostUsd: number;
  messageCount: number;
  /** Import format and other per-transcript metadata, as JSON-compatible data. */
  metadata: Record<string, unknown> | null;
}
