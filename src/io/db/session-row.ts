import type { CompressorState } from '../../core/compression/compressor-state.ts';

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
  /** Live (active) messages. */
  messageCount: number;
  /** Import format and other per-transcript metadata, as JSON-compatible data. */
  metadata: Record<string, unknown> | null;
  /** v2: the compressor's memory between calls (Hermes keeps it in `sessions.compression_*`). */
  compressorState: CompressorState | null;
  /** v2: the provider and base URL the session talked to (Hermes `billing_provider`/`billing_base_url`). */
  provider: string | null;
  baseUrl: string | null;
  /** v2: when the newest message was stored; orders continuation candidates (`get_compression_tip`). */
  lastMessageAt: number | null;
  /**
   * v3: bumped by every change to the live history other than an append — a compaction in place,
   * an undo, a redo — so a tab holding an older copy notices before it appends (absent = 0).
   */
  historyRevision?: number;
}
