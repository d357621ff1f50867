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
import type { CompactionEpoch, CompactionEpochDetails } from '../../core/sessions/compaction-epoch.ts';
import { redoTarget, supersededBy, undoTarget } from '../../core/sessions/epoch-navigation.ts';
import {
  epochsAround,
  isUndoneBranch,
  liveRows,
  rowIds,
  sameIds,
  setFlags,
  withHistoryChange,
  type EpochStep,
} from './compaction-epoch-writes.ts';
import type { CompactionRow } from './compaction-row.ts';
import { EpochInconsistentError, redoEpoch, undoEpoch, type EpochTransition } from './epoch-transitions.ts';
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
import {
  changeMessageRows,
  readMessageRows,
  readSessionMessageRows,
  sessionMessageIds,
} from './message-groups.ts';
import type { MessageRow } from './message-row.ts';
import { loadRelatedSessions } from './load-related-sessions.ts';
import { messageToRow, newSessionRow, sessionRowToRecord } from './row-mappers.ts';
import { sanitizeSessionTitle } from '../../core/sessions/sanitize-session-title.ts';
import { SearchIndex, type PreparedTerms, type SearchHit, type SearchOptions } from './search-index.ts';
import type { SessionEventPublisher } from './session-events.ts';
import type { SessionRow } from './session-row.ts';
import type {
  HistoryChangedError,
  NoEpochError,
  SessionAlreadyEndedError,
  SessionNotFoundError,
  MessageNotFoundError,
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

/** A live stored message with its id (the order key search hits report) and whether it is pinned. */
export interface StoredMessageEntry {
  readonly id: number;
  readonly message: Message;
  readonly pinned: boolean;
}

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
  /**
   * The live rows the compaction read, in order. When given and the live rows differ now (another
   * tab added a turn meanwhile), nothing is written and the error is `HistoryChanged`.
   */
  basisMessageIds?: readonly number[];
  /** Recorded as the compaction's epoch in the same transaction, so it can be undone and exported. */
  epoch?: CompactionEpochDetails;
  /** Indices of `compressed` that hold pinned messages: their rows are stored pinned. */
  pinned?: readonly number[];
}

/** An in-place compaction (hermes-reference §6 step 13, `archive_and_compact`). */
export interface InPlaceInfo {
  /** The compressor's state after the compaction. */
  compressorState: CompressorState;
  /** The rebuilt system prompt, stored on the session (`update_system_prompt`). */
  systemPrompt: string | null;
  /** As for a rotation: the live rows the compaction read; others live now refuse the write. */
  basisMessageIds?: readonly number[];
  epoch: CompactionEpochDetails;
  /** Indices of `compressed` that hold pinned messages: their rows are stored pinned. */
  pinned?: readonly number[];
}

export type InPlaceError =
  StorageFullError | SessionNotFoundError | SessionAlreadyEndedError | HistoryChangedError;

/** What undo or redo changed: the epoch after it, and the session the conversation is live in. */
export interface EpochChange {
  readonly epoch: CompactionEpoch;
  readonly session: SessionRow;
}

export type EpochChangeError =
  StorageFullError | SessionNotFoundError | SessionAlreadyEndedError | HistoryChangedError | NoEpochError;

export interface EpochChangeOptions {
  /**
   * The epoch the user saw as the one to undo (or redo). When another tab has changed the
   * history since, another epoch would be the target; refusing then is what keeps two tabs from
   * undoing twice.
   */
  readonly expectedEpochId?: number;
}

/** The steps of a rotation, in order; `onRotationStep` is called after each. */
export const ROTATION_STEPS = ['end-old', 'create-child', 'insert-messages', 'index-terms'] as const;
export type RotationStep = (typeof ROTATION_STEPS)[number];

export type RotationError =
  StorageFullError | SessionNotFoundError | SessionAlreadyEndedError | HistoryChangedError;

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
  /** Test-only fault injection for in-place compaction, undo and redo (and a rotation's epoch record). */
  onEpochStep?: (step: EpochStep) => void;
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
    return [this.#db.sessions, this.#db.messages, this.#db.searchShards, this.#db.persistedOutputs];
  }

  /** The tables a compaction, undo or redo writes: the message tables and the epochs. */
  get #epochTables() {
    return [...this.#messageTables, this.#db.compactions];
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
   * the conversation, so the error names the tip to continue at. The same holds for a
   * continuation whose rotation was undone (its parent is live again). With
   * `expectedHistoryRevision`, an append to a history another tab changed since (a compaction in
   * place, an undo, a redo) is refused as `HistoryChanged`.
   */
  async appendMessages(
    sessionId: string,
    messages: readonly Message[],
    options: { readonly expectedHistoryRevision?: number } = {},
  ): Promise<
    Result<number[], StorageFullError | SessionNotFoundError | SessionAlreadyEndedError | HistoryChangedError>
  > {
    const room = await this.#checkRoom(messages);
    if (!room.ok) return room;
    const prepared = await this.searchIndex.prepare(messages);
    let flushed: FlushedOutputs = [];
    const result = await runStorageWrite(() =>
      this.#db.transaction(
        'rw',
        this.#messageTables,
        async (): Promise<
          Result<number[], SessionNotFoundError | SessionAlreadyEndedError | HistoryChangedError>
        > => {
          const session = await this.#db.sessions.get(sessionId);
          if (session === undefined) return err({ type: 'SessionNotFound', sessionId });
          if (session.endReason === END_REASONS.compression || isUndoneBranch(session))
            return err(alreadyEnded(session));
          const expected = options.expectedHistoryRevision;
          if (expected !== undefined && (session.historyRevision ?? 0) !== expected)
            return err(historyChanged(sessionId));
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
  async loadMessageEntries(sessionId: string): Promise<StoredMessageEntry[]> {
    const rows = await this.#sessionRows(sessionId);
    return rows.flatMap((row) =>
      row.active === 1 && row.id !== undefined
        ? [{ id: row.id, message: row.message, pinned: row.pinned === 1 }]
        : [],
    );
  }

  /**
   * Pins (or unpins) the stored message `messageId` of `sessionId`: every compaction keeps a
   * pinned message verbatim. Only the row's flag changes; the message, the search index and
   * the session's history are untouched.
   */
  async setMessagePinned(
    sessionId: string,
    messageId: number,
    pinned: boolean,
  ): Promise<Result<void, StorageFullError | SessionNotFoundError | MessageNotFoundError>> {
    return runStorageWrite(() =>
      this.#db.transaction(
        'rw',
        [this.#db.sessions, this.#db.messages],
        async (): Promise<Result<void, SessionNotFoundError | MessageNotFoundError>> => {
          if ((await this.#db.sessions.get(sessionId)) === undefined)
            return err({ type: 'SessionNotFound', sessionId });
          const [row] = await readMessageRows(this.#db, [messageId]);
          if (row === undefined || row.sessionId !== sessionId)
            return err({
              type: 'MessageNotFound',
              sessionId,
              messageId,
              message: `Message ${messageId} is not stored in session ${sessionId}.`,
            });
          if ((row.pinned === 1) === pinned) return ok(undefined);
          await changeMessageRows(this.#db, [messageId], (stored) => {
            if (pinned) stored.pinned = 1;
            else delete stored.pinned;
          });
          return ok(undefined);
        },
      ),
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
        this.#epochTables,
        async (): Promise<
          Result<SessionRow, SessionNotFoundError | SessionAlreadyEndedError | HistoryChangedError>
        > => {
          // Read inside the write transaction: IndexedDB runs read-write transactions on the
          // same stores one at a time, so two tabs cannot both see the session live.
          const old = await this.#db.sessions.get(oldSessionId);
          if (old === undefined) return err({ type: 'SessionNotFound', sessionId: oldSessionId });
          if (old.endedAt !== null) return err(alreadyEnded(old));
          const replaced = rowIds(await liveRows(this.#db, oldSessionId));
          if (info.basisMessageIds !== undefined && !sameIds(replaced, info.basisMessageIds))
            return err(historyChanged(oldSessionId));
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
          const inserted = await this.#insertMessages(child.id, compressed, prepared, now, step, info.pinned);
          flushed = inserted.flushed;
          if (info.epoch)
            await this.#recordEpoch(old.id, {
              ...info.epoch,
              sessionId: old.id,
              childSessionId: child.id,
              mode: 'rotate',
              status: 'applied',
              createdAt: now,
              changedAt: now,
              replacedMessageIds: replaced,
              resultMessageIds: inserted.ids,
              carriedMessageIds: [],
              compressorStateBefore: old.compressorState,
              compressorStateAfter: info.compressorState,
              systemPromptBefore: old.systemPrompt,
              systemPromptAfter: info.systemPrompt,
            });
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

  /**
   * Hermes' in-place compaction (hermes-reference §6 step 13, `archive_and_compact`), in ONE
   * transaction: every live row of the session becomes `active=0, compacted=1` (still searched
   * and exported, no longer loaded), the compacted list is inserted as the new live rows and
   * indexed, the session keeps its id, title and lineage with the new compressor state, system
   * prompt and live count, and the epoch is recorded. Undone epochs the new history makes
   * unreachable are marked superseded. An interruption anywhere leaves the session as it was.
   */
  async compactInPlace(
    sessionId: string,
    compressed: readonly Message[],
    info: InPlaceInfo,
  ): Promise<Result<{ session: SessionRow; epoch: CompactionEpoch }, InPlaceError>> {
    const room = await this.#checkRoom(compressed);
    if (!room.ok) return room;
    const prepared = await this.searchIndex.prepare(compressed);
    const step = (name: EpochStep): void => this.#deps.onEpochStep?.(name);
    let flushed: FlushedOutputs = [];
    const result = await runStorageWrite(() =>
      this.#db.transaction(
        'rw',
        this.#epochTables,
        async (): Promise<
          Result<
            { session: SessionRow; epoch: CompactionRow },
            SessionNotFoundError | SessionAlreadyEndedError | HistoryChangedError
          >
        > => {
          const session = await this.#db.sessions.get(sessionId);
          if (session === undefined) return err({ type: 'SessionNotFound', sessionId });
          if (session.endedAt !== null) return err(alreadyEnded(session));
          const replaced = rowIds(await liveRows(this.#db, sessionId));
          if (info.basisMessageIds !== undefined && !sameIds(replaced, info.basisMessageIds))
            return err(historyChanged(sessionId));
          const now = this.#deps.now();
          await setFlags(this.#db, replaced, 0, 1);
          step('archive-rows');
          const inserted = await this.#insertMessages(
            sessionId,
            compressed,
            prepared,
            now,
            step,
            info.pinned,
          );
          flushed = inserted.flushed;
          const updated = withHistoryChange(session, {
            systemPrompt: info.systemPrompt,
            compressionCount: Math.max(session.compressionCount + 1, info.compressorState.compressionCount),
            compressorState: info.compressorState,
            messageCount: compressed.length,
            lastMessageAt: compressed.length > 0 ? now : session.lastMessageAt,
          });
          await this.#db.sessions.put(updated);
          step('update-sessions');
          const epoch = await this.#recordEpoch(sessionId, {
            ...info.epoch,
            sessionId,
            childSessionId: null,
            mode: 'in-place',
            status: 'applied',
            createdAt: now,
            changedAt: now,
            replacedMessageIds: replaced,
            resultMessageIds: inserted.ids,
            carriedMessageIds: [],
            compressorStateBefore: session.compressorState,
            compressorStateAfter: info.compressorState,
            systemPromptBefore: session.systemPrompt,
            systemPromptAfter: info.systemPrompt,
          });
          return ok({ session: updated, epoch });
        },
      ),
    );
    if (!result.ok) return this.#withTip(result);
    this.toolResultStorage.forgetFlushed(flushed);
    this.#deps.events?.publish({ type: 'session-updated', id: sessionId });
    const epochs = await this.listConversationCompactions(sessionId);
    const epoch = epochs.find((entry) => entry.id === result.value.epoch.id)!;
    return ok({ session: result.value.session, epoch });
  }

  /**
   * Reverts the newest applied compaction of the conversation live in `liveSessionId`, in one
   * transaction (see `epoch-transitions.ts`): in place the archived rows are live again and the
   * compacted ones hidden; after a rotation the parent is the live tip again and the child an
   * undone branch. Nothing is deleted, so redo can apply it again.
   */
  undoCompaction(
    liveSessionId: string,
    options: EpochChangeOptions = {},
  ): Promise<Result<EpochChange, EpochChangeError>> {
    return this.#changeEpoch(liveSessionId, 'undo', options);
  }

  /** Applies again the compaction undone last on `liveSessionId`, in one transaction. */
  redoCompaction(
    liveSessionId: string,
    options: EpochChangeOptions = {},
  ): Promise<Result<EpochChange, EpochChangeError>> {
    return this.#changeEpoch(liveSessionId, 'redo', options);
  }

  /**
   * The epochs of the conversations the given sessions belong to (made on one of them or
   * creating one of them), oldest first, numbered in commit order from 1.
   */
  async listCompactions(sessionIds: readonly string[]): Promise<CompactionEpoch[]> {
    if (sessionIds.length === 0) return [];
    const ids = [...new Set(sessionIds)];
    const [made, created] = await Promise.all([
      this.#db.compactions.where('sessionId').anyOf(ids).toArray(),
      this.#db.compactions.where('childSessionId').anyOf(ids).toArray(),
    ]);
    const byId = new Map([...made, ...created].map((row) => [row.id!, row]));
    return [...byId.values()]
      .sort((first, second) => first.id! - second.id!)
      .map((row, index) => compactionRowToEpoch(row, index + 1));
  }

  /**
   * Every epoch of the conversation `sessionId` belongs to — its whole chain from the root, undone
   * branches included — oldest first and numbered as `listCompactions` numbers them.
   */
  async listConversationCompactions(sessionId: string): Promise<CompactionEpoch[]> {
    const related = await loadRelatedSessions(this.#db, sessionId);
    const byId = new Map(related.map((row) => [row.id, row]));
    let root = byId.get(sessionId);
    while (root?.parentSessionId && byId.has(root.parentSessionId)) root = byId.get(root.parentSessionId);
    if (root === undefined) return [];
    const conversation = root.id === sessionId ? related : await loadRelatedSessions(this.#db, root.id);
    return this.listCompactions(conversation.map((row) => row.id));
  }

  /** The history each side of an epoch holds, as committed: what it replaced and what it produced. */
  async loadEpochMessages(epochId: number): Promise<{ before: Message[]; after: Message[] } | null> {
    const row = await this.#db.compactions.get(epochId);
    if (row === undefined) return null;
    const load = async (ids: readonly number[]): Promise<Message[]> =>
      (await readMessageRows(this.#db, ids)).flatMap((row) => (row ? [row.message] : []));
    return { before: await load(row.replacedMessageIds), after: await load(row.resultMessageIds) };
  }

  async #changeEpoch(
    liveSessionId: string,
    direction: 'undo' | 'redo',
    options: EpochChangeOptions,
  ): Promise<Result<EpochChange, EpochChangeError>> {
    const step = (name: EpochStep): void => this.#deps.onEpochStep?.(name);
    const result = await runStorageWrite(() =>
      this.#db.transaction(
        'rw',
        [this.#db.sessions, this.#db.messages, this.#db.persistedOutputs, this.#db.compactions],
        async (): Promise<
          Result<
            EpochTransition,
            SessionNotFoundError | SessionAlreadyEndedError | HistoryChangedError | NoEpochError
          >
        > => {
          const live = await this.#db.sessions.get(liveSessionId);
          if (live === undefined) return err({ type: 'SessionNotFound', sessionId: liveSessionId });
          if (live.endedAt !== null) return err(alreadyEnded(live));
          const epochs = await epochsAround(this.#db, liveSessionId);
          const target =
            direction === 'undo' ? undoTarget(epochs, liveSessionId) : redoTarget(epochs, liveSessionId);
          if (target === null) {
            if (options.expectedEpochId !== undefined) return err(historyChanged(liveSessionId));
            return err({
              type: direction === 'undo' ? 'NothingToUndo' : 'NothingToRedo',
              sessionId: liveSessionId,
              message:
                direction === 'undo'
                  ? 'There is no compaction to undo in this conversation.'
                  : 'There is no undone compaction to redo.',
            });
          }
          if (options.expectedEpochId !== undefined && target.id !== options.expectedEpochId)
            return err(historyChanged(liveSessionId));
          const now = this.#deps.now();
          return ok(
            direction === 'undo'
              ? await undoEpoch(this.#db, target, now, step)
              : await redoEpoch(this.#db, target, now, step),
          );
        },
      ),
    ).catch((error: unknown) => {
      // Rows contradicting the epoch roll the transaction back; the user hears why.
      if (error instanceof EpochInconsistentError)
        return err({ type: 'HistoryChanged' as const, sessionId: liveSessionId, message: error.message });
      throw error;
    });
    if (!result.ok) return this.#withTip(result);
    const { epoch, session } = result.value;
    for (const id of new Set([epoch.sessionId, epoch.childSessionId ?? epoch.sessionId]))
      this.#deps.events?.publish({ type: 'session-updated', id });
    const listed = await this.listConversationCompactions(epoch.sessionId);
    return ok({ epoch: listed.find((entry) => entry.id === epoch.id)!, session });
  }

  /**
   * Inside a compaction's transaction: records its epoch and marks superseded the undone epochs
   * its new history cuts off (redo could only apply them to a history they were not made for).
   */
  async #recordEpoch(sessionId: string, row: Omit<CompactionRow, 'id'>): Promise<CompactionRow> {
    const cutOff = supersededBy(await epochsAround(this.#db, sessionId), sessionId);
    if (cutOff.length > 0)
      await this.#db.compactions.bulkPut(
        cutOff.map((epoch) => ({ ...epoch, status: 'superseded' as const, changedAt: row.createdAt })),
      );
    const id = await this.#db.compactions.add(row);
    this.#deps.onEpochStep?.('record-epoch');
    return { ...row, id: id! };
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
   * Deletes a session with its messages, search postings, usage events and compaction epochs. Its persisted tool
   * outputs move to a child when it has one (the child's compressed tail may still cite them)
   * and are deleted otherwise. Children keep a `parentSessionId` naming the deleted session:
   * the lineage walk stops at a missing parent, so each child becomes the root of its chain.
   */
  async deleteSession(id: string): Promise<Result<void, StorageFullError | SessionNotFoundError>> {
    const { sessions, messages, searchShards, persistedOutputs, usageEvents, compactions } = this.#db;
    const result = await runStorageWrite(() =>
      this.#db.transaction(
        'rw',
        [sessions, messages, searchShards, persistedOutputs, usageEvents, compactions],
        async (): Promise<Result<void, SessionNotFoundError>> => {
          if ((await sessions.get(id)) === undefined) return err({ type: 'SessionNotFound', sessionId: id });
          const messageIds = await sessionMessageIds(this.#db, id);
          await this.searchIndex.remove(messageIds);
          await messages.where('sessionId').equals(id).delete();
          await usageEvents.where('sessionId').equals(id).delete();
          // Its epochs go with it: their rows on this side are gone, so they can no longer be undone.
          await compactions.where('sessionId').equals(id).delete();
          await compactions.where('childSessionId').equals(id).delete();
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
   * in one transaction. `compaction` marks a summary call rather than a conversation turn, and
   * `compactionId` the compaction attempt it belonged to; `probe` a call of a replay's probe.
   */
  async addUsage(
    sessionId: string,
    usage: CanonicalUsage,
    costUsd: number,
    model: string,
    options: { compaction?: boolean; compactionId?: string | null; probe?: boolean } = {},
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
            ...(options.compactionId ? { compactionId: options.compactionId } : {}),
            ...(options.probe ? { probe: true } : {}),
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
    step?: (name: 'insert-messages' | 'index-terms') => void,
    pinnedIndices: readonly number[] = [],
  ): Promise<{ ids: number[]; flushed: FlushedOutputs }> {
    const pinned = new Set(pinnedIndices);
    const ids = definedIds(
      await this.#db.messages.bulkAdd(
        messages.map((message, index) => messageToRow(sessionId, message, now, pinned.has(index))),
        { allKeys: true },
      ),
    );
    step?.('insert-messages');
    await this.searchIndex.add(prepared, ids);
    step?.('index-terms');
    const flushed = await this.toolResultStorage.flushCitedBy(sessionId, messages);
    return { ids, flushed };
  }

  #sessionRows(sessionId: string): Promise<MessageRow[]> {
    return readSessionMessageRows(this.#db, sessionId);
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
  async #withTip<T, E extends { readonly type: string }>(result: Result<T, E>): Promise<Result<T, E>> {
    if (result.ok || !isAlreadyEnded(result.error)) return result;
    const error: SessionAlreadyEndedError = result.error;
    return err({ ...result.error, tipSessionId: await this.getCompressionTip(error.tipSessionId) });
  }
}

/**
 * The tip is filled in after the transaction (`#withTip`, from `tipSessionId`); reading the chain
 * inside would widen it. An undone branch continues at its parent's tip, not its own.
 */
function alreadyEnded(session: SessionRow): SessionAlreadyEndedError {
  return {
    type: 'SessionAlreadyEnded',
    sessionId: session.id,
    endReason: session.endReason,
    tipSessionId: isUndoneBranch(session) && session.parentSessionId ? session.parentSessionId : session.id,
  };
}

const isAlreadyEnded = (error: { readonly type: string }): error is SessionAlreadyEndedError =>
  error.type === 'SessionAlreadyEnded';

function historyChanged(sessionId: string): HistoryChangedError {
  return {
    type: 'HistoryChanged',
    sessionId,
    message:
      'The conversation changed in another tab (a new turn, a compaction, an undo or a redo) since this was worked out; nothing was changed here. Reload it and try again.',
  };
}

/** The domain view of a stored epoch; `number` is its place in its conversation. */
export function compactionRowToEpoch(row: CompactionRow, number: number): CompactionEpoch {
  return {
    id: row.id!,
    number,
    sessionId: row.sessionId,
    childSessionId: row.childSessionId,
    mode: row.mode,
    status: row.status,
    createdAt: row.createdAt,
    changedAt: row.changedAt,
    reason: row.reason,
    attemptId: row.attemptId ?? null,
    reviewed: row.reviewed,
    summaries: row.summaries,
    boundaries: row.boundaries,
    settings: row.settings,
    tokensBefore: row.tokensBefore,
    tokensAfter: row.tokensAfter,
    assessment: row.assessment,
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
