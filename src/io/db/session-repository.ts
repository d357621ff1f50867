import type { CompressorState } from '../../core/compression/compressor-state.ts';
import type { Preset } from '../../core/presets/preset.ts';
import type { StoredSessionsMarker } from '../../core/sessions/detect-lost-sessions.ts';
import { formatBytes } from '../../core/shared/format-bytes.ts';
import { getCompressionTip } from '../../core/sessions/get-compression-tip.ts';
import { getNextTitleInLineage } from '../../core/sessions/get-next-title-in-lineage.ts';
import { newSessionId } from '../../core/sessions/new-session-id.ts';
import { resolveResumeSessionId } from '../../core/sessions/resolve-resume-session-id.ts';
import { END_REASONS } from '../../core/sessions/session-record.ts';
import { sessionLineageRootToTip } from '../../core/sessions/session-lineage-root-to-tip.ts';
import { err, ok, type Result } from '../../core/shared/result.ts';
import type { Message } from '../../core/transcript/message.ts';
import type { CanonicalUsage } from '../../core/usage/canonical-usage.ts';
import type { AppDb } from './app-db.ts';
import {
  exportLineage,
  type LineageExportFormat,
  type LineageExportOptions,
  type LineageSegment,
} from './export-lineage.ts';
import {
  IndexedDbToolResultStorage,
  type FlushedOutputs,
  type PersistedOutputNotFoundError,
  type PersistedOutputSlice,
  type PersistedOutputUnit,
} from './indexed-db-tool-result-storage.ts';
import type { MessageRow } from './message-row.ts';
import { loadRelatedSessions } from './load-related-sessions.ts';
import { messageToRow, newSessionRow, sessionRowToRecord } from './row-mappers.ts';
import { sanitizeSessionTitle } from '../../core/sessions/sanitize-session-title.ts';
import { SearchIndex, type PreparedTerms, type SearchHit, type SearchOptions } from './search-index.ts';
import type { SessionEventPublisher } from './session-events.ts';
import type { SessionRow } from './session-row.ts';
import type {
  SessionAlreadyEndedError,
  SessionNotFoundError,
  TitleInUseError,
} from './session-store-error.ts';
import type { StorageEstimateBytes } from './browser-storage.ts';
import { estimateStoredBytes } from './estimate-stored-bytes.ts';
import {
  runPlainStorageWrite,
  runStorageWrite,
  storageFull,
  type StorageFullError,
} from './storage-full-error.ts';
import {
  storeSessionInBatches,
  type StoreInBatchesError,
  type StoreInBatchesOptions,
} from './store-session-in-batches.ts';
import type { UsageEventRow } from './usage-event-row.ts';

export type SessionSource = 'chat' | 'import' | 'demo' | 'replay';

export interface CreateSessionInput {
  title: string | null;
  source: SessionSource;
  model: string | null;
  systemPrompt: string | null;
  metadata?: Record<string, unknown> | null;
  parentSessionId?: string | null;
  provider?: string | null;
  baseUrl?: string | null;
}

export interface RotationInfo {
  /** The compressor's state after the compaction; the child starts with it. */
  compressorState: CompressorState;
  /** The rebuilt system prompt (hermes-reference §6 step 12), stored on the child. */
  systemPrompt: string | null;
  endReason?: 'compression';
}

/** The steps of a rotation, in order; `onRotationStep` is called after each. */
export const ROTATION_STEPS = ['end-old', 'create-child', 'insert-messages', 'index-terms'] as const;
export type RotationStep = (typeof ROTATION_STEPS)[number];

export type RotationError = StorageFullError | SessionNotFoundError | SessionAlreadyEndedError;

export interface SessionRepositoryDeps {
  now: () => number;
  randomHex: (bytes: number) => string;
  /** The preset in force: its continuation-chain rules decide the tip, resume and lineage. */
  preset: () => Preset;
  /** Told about every committed change, for other tabs. */
  events?: SessionEventPublisher;
  searchIndex?: SearchIndex;
  toolResultStorage?: IndexedDbToolResultStorage;
  /**
   * The browser's storage estimate: before a large write the repository checks there is room,
   * and refuses with the figures instead of letting the browser fail midway.
   */
  storageEstimate?: () => Promise<StorageEstimateBytes | null>;
  /**
   * Test-only fault injection: called inside the rotation transaction after each step.
   * Throwing from it aborts the transaction exactly as a crash or a closed tab would.
   */
  onRotationStep?: (step: RotationStep) => void;
}

/** Writes estimated above this size are checked against the storage estimate first. */
export const LARGE_WRITE_BYTES = 4 * 1024 * 1024;

/** Random bytes in a session id (`YYYYMMDD_HHMMSS_<6 hex>`). */
const SESSION_ID_RANDOM_BYTES = 3;
const MAXIMUM_SESSION_ID_ATTEMPTS = 8;

/**
 * The session store (hermes-reference §11) over IndexedDB: sessions, their messages, the search
 * index, large tool outputs and usage, with Hermes' continuation chains.
 *
 * Every write is one Dexie transaction: it happens entirely or not at all, including when the
 * tab closes midway. Writes return `Result`s: a full disk is `StorageFull` with nothing changed.
 * Times are epoch milliseconds from `deps.now`.
 */
export class SessionRepository {
  readonly #db: AppDb;
  readonly #deps: SessionRepositoryDeps;
  readonly searchIndex: SearchIndex;
  readonly toolResultStorage: IndexedDbToolResultStorage;

  constructor(db: AppDb, deps: SessionRepositoryDeps) {
    this.#db = db;
    this.#deps = deps;
    this.searchIndex = deps.searchIndex ?? new SearchIndex(db);
    this.toolResultStorage = deps.toolResultStorage ?? new IndexedDbToolResultStorage(db, { now: deps.now });
  }

  get #preset(): Preset {
    return this.#deps.preset();
  }

  /** The tables a transaction that stores messages writes. */
  get #messageTables() {
    return [this.#db.sessions, this.#db.messages, this.#db.searchTerms, this.#db.persistedOutputs];
  }

  /** A new live session holding `messages`, indexed for search, in one transaction. */
  async createSession(
    input: CreateSessionInput,
    messages: readonly Message[],
  ): Promise<Result<SessionRow, StorageFullError>> {
    const room = await this.#checkRoom(messages);
    if (!room.ok) return room;
    const prepared = await this.searchIndex.prepare(messages);
    let flushed: FlushedOutputs = [];
    const result = await runPlainStorageWrite(() =>
      this.#db.transaction('rw', this.#messageTables, async () => {
        const now = this.#deps.now();
        const session = newLiveSession(input, await this.#mintSessionId(now), now, messages.length);
        await this.#db.sessions.add(session);
        flushed = (await this.#insertMessages(session.id, messages, prepared, now)).flushed;
        return session;
      }),
    );
    if (result.ok) {
      this.toolResultStorage.forgetFlushed(flushed);
      this.#deps.events?.publish({ type: 'session-created', id: result.value.id });
    }
    return result;
  }

  /**
   * A new live session holding `messages`, written in batches of a few hundred messages (see
   * `store-session-in-batches.ts`): for an import too large for one transaction. Nothing is
   * visible until the last batch commits with the session row; a cancelled (`options.signal`)
   * or failed store removes what it wrote. Imported messages cite no pending tool output, so
   * none is flushed.
   */
  async createSessionInBatches(
    input: CreateSessionInput,
    messages: readonly Message[],
    options: StoreInBatchesOptions & {
      /** The storage estimate to check room against, instead of the repository's own. */
      storageEstimate?: () => Promise<StorageEstimateBytes | null>;
    } = {},
  ): Promise<Result<SessionRow, StoreInBatchesError>> {
    const room = await this.#checkRoom(messages, options.storageEstimate ?? this.#deps.storageEstimate);
    if (!room.ok) return room;
    const result = await storeSessionInBatches(
      {
        db: this.#db,
        searchIndex: this.searchIndex,
        now: this.#deps.now,
        mintSessionId: (now) => this.#mintSessionId(now, { unusedByMessages: true }),
      },
      (id, now) => newLiveSession(input, id, now, messages.length),
      messages,
      options,
    );
    if (result.ok) this.#deps.events?.publish({ type: 'session-created', id: result.value.id });
    return result;
  }

  /**
   * Appends messages to a live session; returns their ids (the order key). Refused for a
   * session that was rotated for compression (another tab, say): appending there would fork
   * the conversation, so the error names the tip to continue at.
   */
  async appendMessages(
    sessionId: string,
    messages: readonly Message[],
  ): Promise<Result<number[], StorageFullError | SessionNotFoundError | SessionAlreadyEndedError>> {
    const room = await this.#checkRoom(messages);
    if (!room.ok) return room;
    const prepared = await this.searchIndex.prepare(messages);
    let flushed: FlushedOutputs = [];
    const result = await runStorageWrite(() =>
      this.#db.transaction(
        'rw',
        this.#messageTables,
        async (): Promise<Result<number[], SessionNotFoundError | SessionAlreadyEndedError>> => {
          const session = await this.#db.sessions.get(sessionId);
          if (session === undefined) return err({ type: 'SessionNotFound', sessionId });
          if (session.endReason === END_REASONS.compression) return err(alreadyEnded(session));
          const now = this.#deps.now();
          const inserted = await this.#insertMessages(sessionId, messages, prepared, now);
          flushed = inserted.flushed;
          await this.#db.sessions.put({
            ...session,
            messageCount: session.messageCount + messages.length,
            lastMessageAt: messages.length > 0 ? now : session.lastMessageAt,
          });
          return ok(inserted.ids);
        },
      ),
    );
    if (result.ok) {
      this.toolResultStorage.forgetFlushed(flushed);
      this.#deps.events?.publish({ type: 'session-updated', id: sessionId });
    }
    return this.#withTip(result);
  }

  /** The live transcript: active rows in id order (Hermes `get_messages`). */
  async loadMessages(sessionId: string): Promise<Message[]> {
    const rows = await this.#sessionRows(sessionId);
    return rows.filter((row) => row.active === 1).map((row) => row.message);
  }

  /**
   * The live transcript with each message's stored id — the id search hits and
   * `appendMessages` report — so a hit can be found in the loaded transcript.
   */
  async loadMessageEntries(sessionId: string): Promise<Array<{ id: number; message: Message }>> {
    const rows = await this.#sessionRows(sessionId);
    return rows.flatMap((row) =>
      row.active === 1 && row.id !== undefined ? [{ id: row.id, message: row.message }] : [],
    );
  }

  getSession(id: string): Promise<SessionRow | undefined> {
    return this.#db.sessions.get(id);
  }

  /** How many sessions are stored and the id of the newest started: the eviction marker's figures. */
  async storedSessionsSummary(): Promise<StoredSessionsMarker> {
    const [count, newest] = await Promise.all([
      this.#db.sessions.count(),
      this.#db.sessions.orderBy('startedAt').last(),
    ]);
    return { count, newestId: newest?.id ?? null };
  }

  /** Every session, newest started first. */
  listSessions(): Promise<SessionRow[]> {
    return this.#db.sessions.orderBy('startedAt').reverse().toArray();
  }

  /**
   * Hermes' rotation (hermes-reference §6 step 13, rotation branch), in ONE transaction over
   * sessions, messages, search terms and persisted outputs: the old session ends with
   * `compression`; a child with a new id, `parentSessionId` = the old id, the next title of the
   * lineage (`… #2`, `… #3`), the same source, model and provider, the compression count carried
   * and zeroed usage accumulators receives the compressed transcript, indexed for search.
   * An interruption anywhere leaves either the old session live and untouched or the whole new
   * chain, never half of it.
   *
   * The old session must still be live (`endedAt` null; `end_session` only ends live rows, so
   * the first reason wins). If it has ended — another tab rotated it first — nothing is written
   * and the error names the chain's tip, where the caller should resume.
   */
  async rotateForCompression(
    oldSessionId: string,
    compressed: readonly Message[],
    info: RotationInfo,
  ): Promise<Result<SessionRow, RotationError>> {
    const room = await this.#checkRoom(compressed);
    if (!room.ok) return room;
    const prepared = await this.searchIndex.prepare(compressed);
    const step = (name: RotationStep): void => this.#deps.onRotationStep?.(name);
    let flushed: FlushedOutputs = [];
    const result = await runStorageWrite(() =>
      this.#db.transaction(
        'rw',
        this.#messageTables,
        async (): Promise<Result<SessionRow, SessionNotFoundError | SessionAlreadyEndedError>> => {
          // Read inside the write transaction: IndexedDB runs read-write transactions on the
          // same stores one at a time, so two tabs cannot both see the session live.
          const old = await this.#db.sessions.get(oldSessionId);
          if (old === undefined) return err({ type: 'SessionNotFound', sessionId: oldSessionId });
          if (old.endedAt !== null) return err(alreadyEnded(old));
          const now = this.#deps.now();
          await this.#db.sessions.put({
            ...old,
            endedAt: now,
            endReason: info.endReason ?? END_REASONS.compression,
          });
          step('end-old');

          const titles = (await this.#db.sessions.orderBy('title').uniqueKeys()).filter(
            (title): title is string => typeof title === 'string',
          );
          const child: SessionRow = {
            ...newSessionRow(await this.#mintSessionId(now), now),
            title: old.title === null ? null : getNextTitleInLineage(old.title, titles),
            source: old.source,
            model: old.model,
            provider: old.provider,
            baseUrl: old.baseUrl,
            // A branch or delegate marker describes the old session, not its continuation; carried
            // over it would hide the child from the tip walk.
            metadata: withoutChainMarkers(old.metadata),
            parentSessionId: old.id,
            systemPrompt: info.systemPrompt,
            // The compressor counts the compaction that caused this rotation; older callers may not.
            compressionCount: Math.max(old.compressionCount + 1, info.compressorState.compressionCount),
            compressorState: info.compressorState,
            messageCount: compressed.length,
            lastMessageAt: compressed.length > 0 ? now : null,
          };
          await this.#db.sessions.add(child);
          step('create-child');
          flushed = (await this.#insertMessages(child.id, compressed, prepared, now, step)).flushed;
          return ok(child);
        },
      ),
    );
    if (result.ok) {
      this.toolResultStorage.forgetFlushed(flushed);
      this.#deps.events?.publish({ type: 'session-rotated', oldId: oldSessionId, newId: result.value.id });
    }
    return this.#withTip(result);
  }

  /** The live end of the compression chain through `id` (`get_compression_tip`). */
  async getCompressionTip(id: string, preset: Preset = this.#preset): Promise<string> {
    const related = await loadRelatedSessions(this.#db, id);
    return getCompressionTip(related.map(sessionRowToRecord), id, preset);
  }

  /** The session that resuming `id` opens (`resolve_resume_session_id`). */
  async resolveResumeSessionId(id: string, preset: Preset = this.#preset): Promise<string> {
    const related = await loadRelatedSessions(this.#db, id);
    return resolveResumeSessionId(related.map(sessionRowToRecord), id, preset);
  }

  /**
   * The conversation `id` belongs to, root first, ending at its compression tip: the ancestry
   * (`_session_lineage_root_to_tip`) of the tip, so any session of a chain gives the whole chain.
   */
  async lineageRootToTip(id: string, preset: Preset = this.#preset): Promise<SessionRow[]> {
    const related = await loadRelatedSessions(this.#db, id);
    const records = related.map(sessionRowToRecord);
    const tip = getCompressionTip(records, id, preset);
    const byId = new Map(related.map((row) => [row.id, row]));
    return sessionLineageRootToTip(records, tip).flatMap((chainId) => byId.get(chainId) ?? []);
  }

  /**
   * Every turn reachable through the lineage, root first: each session with its live and
   * compaction-archived messages in id order (rewound rows are left out).
   */
  async loadLineageMessages(id: string, preset: Preset = this.#preset): Promise<LineageSegment[]> {
    const chain = await this.lineageRootToTip(id, preset);
    return Promise.all(
      chain.map(async (session) => ({
        session,
        messages: (await this.#sessionRows(session.id))
          .filter((row) => row.active === 1 || row.compacted === 1)
          .map((row) => row.message),
      })),
    );
  }

  /** The lineage of `id` in an export format (see `export-lineage.ts`). */
  async exportLineage(
    id: string,
    format: LineageExportFormat,
    options: LineageExportOptions = {},
  ): Promise<string> {
    const lineage = await this.loadLineageMessages(id, options.preset ?? this.#preset);
    return exportLineage(lineage, format, options);
  }

  /**
   * Deletes a session with its messages, search postings and usage events. Its persisted tool
   * outputs move to a child when it has one (the child's compressed tail may still cite them)
   * and are deleted otherwise. Children keep a `parentSessionId` naming the deleted session:
   * the lineage walk stops at a missing parent, so each child becomes the root of its chain.
   */
  async deleteSession(id: string): Promise<Result<void, StorageFullError | SessionNotFoundError>> {
    const { sessions, messages, searchTerms, persistedOutputs, usageEvents } = this.#db;
    const result = await runStorageWrite(() =>
      this.#db.transaction(
        'rw',
        [sessions, messages, searchTerms, persistedOutputs, usageEvents],
        async (): Promise<Result<void, SessionNotFoundError>> => {
          if ((await sessions.get(id)) === undefined) return err({ type: 'SessionNotFound', sessionId: id });
          const messageIds = definedIds(await messages.where('sessionId').equals(id).primaryKeys());
          await this.searchIndex.remove(messageIds);
          await messages.bulkDelete(messageIds);
          await usageEvents.where('sessionId').equals(id).delete();
          const child = await sessions.where('parentSessionId').equals(id).first();
          const outputs = persistedOutputs.where('sessionId').equals(id);
          if (child === undefined) await outputs.delete();
          else await outputs.modify({ sessionId: child.id });
          await sessions.delete(id);
          return ok(undefined);
        },
      ),
    );
    if (result.ok) this.#deps.events?.publish({ type: 'session-deleted', id });
    return result;
  }

  /**
   * Sets the title (whitespace collapsed, at most 100 characters; blank clears it). A title
   * another session holds is refused, as Hermes' unique title index does.
   */
  async renameSession(
    id: string,
    title: string | null,
  ): Promise<Result<SessionRow, StorageFullError | SessionNotFoundError | TitleInUseError>> {
    const clean = sanitizeSessionTitle(title);
    const result = await runStorageWrite(() =>
      this.#db.transaction(
        'rw',
        this.#db.sessions,
        async (): Promise<Result<SessionRow, SessionNotFoundError | TitleInUseError>> => {
          const session = await this.#db.sessions.get(id);
          if (session === undefined) return err({ type: 'SessionNotFound', sessionId: id });
          if (clean !== null) {
            const holder = await this.#db.sessions.where('title').equals(clean).first();
            if (holder !== undefined && holder.id !== id) {
              return err({ type: 'TitleInUse', title: clean, sessionId: holder.id });
            }
          }
          const renamed = { ...session, title: clean };
          await this.#db.sessions.put(renamed);
          return ok(renamed);
        },
      ),
    );
    if (result.ok) this.#deps.events?.publish({ type: 'session-updated', id });
    return result;
  }

  /**
   * Adds one response's usage to the session's accumulators and records it as a usage event,
   * in one transaction. `compaction` marks a summary call rather than a conversation turn.
   */
  async addUsage(
    sessionId: string,
    usage: CanonicalUsage,
    costUsd: number,
    model: string,
    options: { compaction?: boolean } = {},
  ): Promise<Result<SessionRow, StorageFullError | SessionNotFoundError>> {
    const { sessions, usageEvents } = this.#db;
    const result = await runStorageWrite(() =>
      this.#db.transaction(
        'rw',
        [sessions, usageEvents],
        async (): Promise<Result<SessionRow, SessionNotFoundError>> => {
          const session = await sessions.get(sessionId);
          if (session === undefined) return err({ type: 'SessionNotFound', sessionId });
          const now = this.#deps.now();
          const updated: SessionRow = {
            ...session,
            inputTokens: session.inputTokens + usage.inputTokens,
            outputTokens: session.outputTokens + usage.outputTokens,
            cacheReadTokens: session.cacheReadTokens + usage.cacheReadTokens,
            cacheWriteTokens: session.cacheWriteTokens + usage.cacheWriteTokens,
            reasoningTokens: session.reasoningTokens + usage.reasoningTokens,
            apiCallCount: session.apiCallCount + usage.requestCount,
            estimatedCostUsd: session.estimatedCostUsd + costUsd,
          };
          await sessions.put(updated);
          await usageEvents.add({
            sessionId,
            createdAt: now,
            model,
            inputTokens: usage.inputTokens,
            outputTokens: usage.outputTokens,
            cacheReadTokens: usage.cacheReadTokens,
            cacheWriteTokens: usage.cacheWriteTokens,
            reasoningTokens: usage.reasoningTokens,
            requestCount: usage.requestCount,
            costUsd,
            compaction: options.compaction ?? false,
          });
          return ok(updated);
        },
      ),
    );
    if (result.ok) this.#deps.events?.publish({ type: 'session-updated', id: sessionId });
    return result;
  }

  /** Persists the compressor's state between calls (cooldowns, anti-thrash strikes, previous summary). */
  async saveCompressorState(
    sessionId: string,
    state: CompressorState,
  ): Promise<Result<void, StorageFullError | SessionNotFoundError>> {
    return runStorageWrite(() =>
      this.#db.transaction('rw', this.#db.sessions, async (): Promise<Result<void, SessionNotFoundError>> => {
        const session = await this.#db.sessions.get(sessionId);
        if (session === undefined) return err({ type: 'SessionNotFound', sessionId });
        await this.#db.sessions.put({
          ...session,
          compressorState: state,
          compressionCount: Math.max(session.compressionCount, state.compressionCount),
        });
        return ok(undefined);
      }),
    );
  }

  /** Usage events of one session or of several (a lineage), oldest first. */
  async listUsageEvents(sessionIds: string | readonly string[]): Promise<UsageEventRow[]> {
    const ids = typeof sessionIds === 'string' ? [sessionIds] : [...sessionIds];
    const rows = await this.#db.usageEvents.where('sessionId').anyOf(ids).toArray();
    return rows.sort((first, second) => (first.id ?? 0) - (second.id ?? 0));
  }

  search(query: string, options?: SearchOptions): Promise<SearchHit[]> {
    return this.searchIndex.search(query, options);
  }

  readPersistedOutput(
    fileNameOrPath: string,
    offset: number,
    limit: number,
    unit?: PersistedOutputUnit,
  ): Promise<Result<PersistedOutputSlice, PersistedOutputNotFoundError>> {
    return this.toolResultStorage.readPersistedOutput(fileNameOrPath, offset, limit, unit);
  }

  /** Inside a transaction over the message tables: rows, search postings, cited tool outputs. */
  /**
   * Refuses a large write the browser has no room for, naming the figures. Small writes (a chat
   * turn) are not checked: the estimate costs a round trip, and a full disk still fails them
   * cleanly as `StorageFull`.
   */
  async #checkRoom(
    messages: readonly Message[],
    storageEstimate = this.#deps.storageEstimate,
  ): Promise<Result<void, StorageFullError>> {
    const neededBytes = estimateStoredBytes(messages);
    if (neededBytes < LARGE_WRITE_BYTES || !storageEstimate) return ok(undefined);
    const estimate = await storageEstimate();
    if (estimate === null) return ok(undefined);
    const freeBytes = Math.max(0, estimate.quotaBytes - estimate.usageBytes);
    if (freeBytes >= neededBytes) return ok(undefined);
    return err(
      storageFull(
        `Not enough browser storage: this needs about ${formatBytes(neededBytes)}, but only ` +
          `${formatBytes(freeBytes)} of the ${formatBytes(estimate.quotaBytes)} this site may use are free.`,
      ),
    );
  }

  async #insertMessages(
    sessionId: string,
    messages: readonly Message[],
    prepared: PreparedTerms,
    now: number,
    step?: (name: RotationStep) => void,
  ): Promise<{ ids: number[]; flushed: FlushedOutputs }> {
    const ids = definedIds(
      await this.#db.messages.bulkAdd(
        messages.map((message) => messageToRow(sessionId, message, now)),
        { allKeys: true },
      ),
    );
    step?.('insert-messages');
    await this.searchIndex.add(prepared, ids);
    step?.('index-terms');
    const flushed = await this.toolResultStorage.flushCitedBy(sessionId, messages);
    return { ids, flushed };
  }

  async #sessionRows(sessionId: string): Promise<MessageRow[]> {
    return this.#db.messages
      .where('[sessionId+id]')
      .between([sessionId, -Infinity], [sessionId, Infinity])
      .toArray();
  }

  /**
   * A fresh id; a collision (same second, same random suffix) draws again. A batched import
   * also avoids ids its messages would share with another import's not yet committed rows.
   */
  async #mintSessionId(now: number, options: { unusedByMessages?: boolean } = {}): Promise<string> {
    for (let attempt = 0; attempt < MAXIMUM_SESSION_ID_ATTEMPTS; attempt++) {
      const id = newSessionId(now, this.#deps.randomHex(SESSION_ID_RANDOM_BYTES));
      if ((await this.#db.sessions.get(id)) !== undefined) continue;
      if (options.unusedByMessages && (await this.#db.messages.where('sessionId').equals(id).count()) > 0)
        continue;
      return id;
    }
    throw new Error(`No unused session id after ${MAXIMUM_SESSION_ID_ATTEMPTS} random draws`);
  }

  /** Fills in the tip of an already-ended session once the transaction is over. */
  async #withTip<T>(result: Result<T, RotationError>): Promise<Result<T, RotationError>> {
    if (result.ok || result.error.type !== 'SessionAlreadyEnded') return result;
    return err({ ...result.error, tipSessionId: await this.getCompressionTip(result.error.sessionId) });
  }
}

/** The tip is filled in after the transaction (`#withTip`); reading the chain inside would widen it. */
function alreadyEnded(session: SessionRow): SessionAlreadyEndedError {
  return {
    type: 'SessionAlreadyEnded',
    sessionId: session.id,
    endReason: session.endReason,
    tipSessionId: session.id,
  };
}

/** The row of a new live session created from `input`, holding `messageCount` messages. */
function newLiveSession(
  input: CreateSessionInput,
  id: string,
  now: number,
  messageCount: number,
): SessionRow {
  return {
    ...newSessionRow(id, now),
    title: sanitizeSessionTitle(input.title),
    source: input.source,
    model: input.model,
    systemPrompt: input.systemPrompt,
    metadata: input.metadata ?? null,
    parentSessionId: input.parentSessionId ?? null,
    provider: input.provider ?? null,
    baseUrl: input.baseUrl ?? null,
    messageCount,
    lastMessageAt: messageCount > 0 ? now : null,
  };
}

function withoutChainMarkers(metadata: Record<string, unknown> | null): Record<string, unknown> | null {
  if (metadata === null) return null;
  const { _branched_from: _branched, _delegate_from: _delegate, ...rest } = metadata;
  return rest;
}

/** Message keys are typed optional (the row's `id` is absent before insertion); stored keys are set. */
const definedIds = (ids: ReadonlyArray<number | undefined>): number[] =>
  ids.filter((id): id is number => id !== undefined);
