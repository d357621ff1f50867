import { INITIAL_COMPRESSOR_STATE, type CompressorState } from '../../core/compression/compressor-state.ts';
import type { HermesSessionRow } from '../../core/export/export-hermes-session-jsonl.ts';
import type { SessionRecord } from '../../core/sessions/session-record.ts';
import { isPlainObject } from '../../core/shared/safe-parse-json.ts';
import type { Message } from '../../core/transcript/message.ts';
import type { MessageRow } from './message-row.ts';
import type { SessionRow } from './session-row.ts';

const MILLISECONDS_PER_SECOND = 1000;

/**
 * The continuation-chain view of a row. Core works in Hermes' epoch seconds; only the order of
 * times matters there, so dividing keeps every comparison. `metadata` plays the part of Hermes'
 * `model_config` (`_branched_from` / `_delegate_from` mark children that do not continue).
 */
export function sessionRowToRecord(row: SessionRow): SessionRecord {
  const seconds = (milliseconds: number | null): number | null =>
    milliseconds === null ? null : milliseconds / MILLISECONDS_PER_SECOND;
  return {
    id: row.id,
    parentSessionId: row.parentSessionId,
    startedAt: row.startedAt / MILLISECONDS_PER_SECOND,
    endedAt: seconds(row.endedAt),
    endReason: row.endReason,
    title: row.title,
    source: row.source,
    modelConfig: row.metadata,
    lastMessageAt: seconds(row.lastMessageAt),
    messageCount: row.messageCount,
  };
}

/** A live session with no messages, usage or compactions yet. */
export function newSessionRow(id: string, startedAt: number): SessionRow {
  return {
    id,
    title: null,
    source: 'chat',
    model: null,
    parentSessionId: null,
    startedAt,
    endedAt: null,
    endReason: null,
    systemPrompt: null,
    compressionCount: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    reasoningTokens: 0,
    apiCallCount: 0,
    estimatedCostUsd: 0,
    messageCount: 0,
    metadata: null,
    compressorState: null,
    provider: null,
    baseUrl: null,
    lastMessageAt: null,
  };
}

/** A new live message row; Dexie assigns the id. */
export function messageToRow(
  sessionId: string,
  message: Message,
  createdAt: number,
  pinned = false,
): MessageRow {
  return {
    sessionId,
    message,
    createdAt,
    active: 1,
    compacted: 0,
    ...(pinned ? { pinned: 1 as const } : {}),
  };
}

export const messageRowToMessage = (row: MessageRow): Message => row.message;

/** An old row's message is at least an object with a role before it is read as one. */
export const isStoredMessage = (value: unknown): value is Message =>
  isPlainObject(value) && typeof value.role === 'string';

/** A session row as Hermes' `sessions` table names its columns (times in seconds). */
export function sessionRowToHermesRow(row: SessionRow): HermesSessionRow {
  const seconds = (milliseconds: number | null): number | null =>
    milliseconds === null ? null : milliseconds / MILLISECONDS_PER_SECOND;
  return {
    id: row.id,
    source: row.source,
    model: row.model,
    model_config: row.metadata === null ? null : JSON.stringify(row.metadata),
    system_prompt: row.systemPrompt,
    parent_session_id: row.parentSessionId,
    started_at: row.startedAt / MILLISECONDS_PER_SECOND,
    ended_at: seconds(row.endedAt),
    end_reason: row.endReason,
    message_count: row.messageCount,
    input_tokens: row.inputTokens,
    output_tokens: row.outputTokens,
    cache_read_tokens: row.cacheReadTokens,
    cache_write_tokens: row.cacheWriteTokens,
    reasoning_tokens: row.reasoningTokens,
    billing_provider: row.provider,
    billing_base_url: row.baseUrl,
    estimated_cost_usd: row.estimatedCostUsd,
    title: row.title,
    api_call_count: row.apiCallCount,
    compression_failure_cooldown_until:
      row.compressorState === null || row.compressorState.cooldownUntilMs === 0
        ? null
        : row.compressorState.cooldownUntilMs / MILLISECONDS_PER_SECOND,
    compression_failure_error: row.compressorState?.lastSummaryError ?? null,
    compression_fallback_streak: row.compressorState?.fallbackStreak ?? 0,
  };
}

/**
 * A stored compressor state, checked field by field (parse, don't cast: the row may come from
 * an older release). Missing or mistyped fields take their initial values; null when the
 * value is not an object at all.
 */
export function parseCompressorState(value: unknown): CompressorState | null {
  if (!isPlainObject(value)) return null;
  const state: Record<string, unknown> = { ...INITIAL_COMPRESSOR_STATE };
  for (const [key, initial] of Object.entries(INITIAL_COMPRESSOR_STATE)) {
    const stored = value[key];
    const fits =
      initial === null
        ? stored === null || typeof stored === 'string'
        : typeof stored === typeof initial && (typeof stored !== 'number' || Number.isFinite(stored));
    if (fits) state[key] = stored;
  }
  return state as unknown as CompressorState;
}

/** What the upgrade counted for a session from its message rows. */
export interface SessionMessageStatistics {
  messageCount: number;
  lastMessageAt: number | null;
}

/**
 * A complete current row from whatever an older release stored: every field checked, missing
 * or mistyped ones defaulted (v1 rows may lack anything but `id`).
 */
export function sessionRowWithDefaults(
  stored: Record<string, unknown> & { id: string },
  statistics: SessionMessageStatistics,
): SessionRow {
  const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
  const count = (value: unknown): number =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
  const time = (value: unknown): number | null =>
    typeof value === 'number' && Number.isFinite(value) ? value : null;
  return {
    id: stored.id,
    title: text(stored.title),
    source: text(stored.source) ?? 'chat',
    model: text(stored.model),
    parentSessionId: text(stored.parentSessionId),
    startedAt: time(stored.startedAt) ?? 0,
    endedAt: time(stored.endedAt),
    endReason: text(stored.endReason),
    systemPrompt: text(stored.systemPrompt),
    compressionCount: count(stored.compressionCount),
    inputTokens: count(stored.inputTokens),
    outputTokens: count(stored.outputTokens),
    cacheReadTokens: count(stored.cacheReadTokens),
    cacheWriteTokens: count(stored.cacheWriteTokens),
    reasoningTokens: count(stored.reasoningTokens),
    apiCallCount: count(stored.apiCallCount),
    estimatedCostUsd: count(stored.estimatedCostUsd),
    messageCount: statistics.messageCount,
    metadata: isPlainObject(stored.metadata) ? stored.metadata : null,
    compressorState: parseCompressorState(stored.compressorState),
    provider: text(stored.provider),
    baseUrl: text(stored.baseUrl),
    lastMessageAt: statistics.lastMessageAt,
  };
}
