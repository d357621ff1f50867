/**
 * What the runtime needs from storage: the narrow slice of the session repository it uses, so
 * the loop can be read (and faked) without the whole repository. `session-repository-store.ts`
 * adapts the IndexedDB `SessionRepository` to it.
 */
import type { CompressorState } from '../../core/compression/compressor-state.ts';
import type { CompactionEpoch, CompactionEpochDetails } from '../../core/sessions/compaction-epoch.ts';
import type { CompactionMode } from '../../core/sessions/compaction-mode.ts';
import type { ToolResultStorage } from '../../core/persistence/tool-result-storage.ts';
import type { Result } from '../../core/shared/result.ts';
import type { Message } from '../../core/transcript/message.ts';
import type { CanonicalUsage } from '../../core/usage/canonical-usage.ts';

export interface StoredChatSession {
  readonly id: string;
  readonly title: string | null;
  readonly systemPrompt: string | null;
  readonly model: string | null;
  readonly parentSessionId: string | null;
  readonly endReason: string | null;
  readonly compressorState: CompressorState | null;
  /** Bumped by every change to the live history other than an append (a compaction in place, an undo, a redo). */
  readonly historyRevision: number;
}

export interface NewChatSession {
  readonly title: string;
  readonly model: string | null;
  readonly systemPrompt: string;
  readonly provider: string | null;
  readonly baseUrl: string | null;
}

/**
 * The session was rotated, or its history changed (by another tab, usually), before this write:
 * it continues at `tipSessionId` (the same session after an in-place change), which the loop
 * reloads.
 */
export interface SessionMoved {
  readonly type: 'SessionMoved';
  readonly tipSessionId: string;
}

/** What a compaction commits, besides the compacted messages. */
export interface CompactionCommit {
  readonly mode: CompactionMode;
  readonly compressorState: CompressorState;
  readonly systemPrompt: string;
  /** The stored ids of the live rows that were compacted, in order. */
  readonly basisMessageIds: readonly number[] | null;
  readonly epoch: CompactionEpochDetails;
  /** Indices of the compacted messages that hold pinned messages: stored pinned, so the pins follow them. */
  readonly pinned?: readonly number[];
}

/** A committed compaction: where the conversation continues (the same session in place). */
export interface CommittedCompaction {
  readonly session: StoredChatSession;
  readonly mode: CompactionMode;
}

/** Undo or redo was refused; `message` says why in words. */
export interface EpochRefused {
  readonly type: 'EpochRefused';
  readonly reason: 'nothing' | 'changed' | 'moved';
  readonly message: string;
  /** Where the conversation lives now, when another tab moved it. */
  readonly tipSessionId: string | null;
}

/** What undo and redo would change now, for the buttons. */
export interface CompactionHistory {
  readonly undo: CompactionEpoch | null;
  readonly redo: CompactionEpoch | null;
  /** Every epoch of the conversation, oldest first. */
  readonly epochs: readonly CompactionEpoch[];
}

export interface CompactionInProgress {
  readonly type: 'CompactionInProgress';
  readonly message: string;
}

export interface SearchHit {
  readonly sessionId: string;
  readonly sessionTitle: string | null;
  readonly role: string;
  readonly snippet: string;
}

/**
 * Storage failures the user must hear about (a full disk) are thrown as errors with a plain
 * message; the outcomes the loop handles itself are values.
 */
export interface ConversationStore {
  createSession(init: NewChatSession): Promise<StoredChatSession>;
  getSession(sessionId: string): Promise<StoredChatSession | null>;
  /**
   * Stores messages at the end of the live history. With `expectedHistoryRevision`, a history
   * another tab changed meanwhile refuses the write as `SessionMoved` to the same session.
   */
  appendMessages(
    sessionId: string,
    messages: readonly Message[],
    expectedHistoryRevision?: number,
  ): Promise<Result<void, SessionMoved>>;
  loadMessages(sessionId: string): Promise<Message[]>;
  /**
   * The live history with each message's stored id (the basis a compaction commits against) and
   * whether the user pinned it (every compaction keeps it verbatim).
   */
  loadMessageEntries(sessionId: string): Promise<Array<{ id: number; message: Message; pinned?: boolean }>>;
  /**
   * Commits a compaction in one transaction with its epoch: in place (the live rows archived,
   * `compressed` the new live rows) or by rotation (the session ends with `compression`, a child
   * holds `compressed`). Another tab's change since the basis was read is `SessionMoved`.
   */
  commitCompaction(
    sessionId: string,
    compressed: readonly Message[],
    commit: CompactionCommit,
  ): Promise<Result<CommittedCompaction, SessionMoved>>;
  /** Reverts the newest applied compaction of the live session `sessionId`, if it is still `expectedEpochId`. */
  undoCompaction(
    sessionId: string,
    expectedEpochId: number,
  ): Promise<Result<{ session: StoredChatSession; epoch: CompactionEpoch }, EpochRefused>>;
  /** Applies again the compaction undone last on `sessionId`, if it is still `expectedEpochId`. */
  redoCompaction(
    sessionId: string,
    expectedEpochId: number,
  ): Promise<Result<{ session: StoredChatSession; epoch: CompactionEpoch }, EpochRefused>>;
  /** The epochs of the conversation live in `sessionId`, with what undo and redo would change. */
  compactionHistory(sessionId: string): Promise<CompactionHistory>;
  /** The newest continuation of `sessionId` (itself when it was never compacted). */
  getCompressionTip(sessionId: string): Promise<string>;
  resolveResumeSessionId(sessionId: string): Promise<string>;
  addUsage(
    sessionId: string,
    usage: CanonicalUsage,
    costUsd: number,
    model: string,
    options?: { readonly compaction?: boolean; readonly compactionId?: string | null },
  ): Promise<void>;
  saveCompressorState(sessionId: string, state: CompressorState): Promise<void>;
  /** Runs `operation` holding the session's cross-tab compaction lock; never waits for another holder. */
  withCompactionLock<T>(
    sessionId: string,
    operation: () => Promise<T>,
  ): Promise<Result<T, CompactionInProgress>>;
  search(query: string, limit: number): Promise<SearchHit[]>;
}

/** Where large tool results go, and how the model reads them back. */
export interface ToolResultStore {
  /** Core's synchronous storage port: queues the write and answers whether it may be referenced. */
  readonly storage: ToolResultStorage;
  /** A slice of a stored output; null when no such file exists. */
  read(fileName: string, offset: number, limit: number): Promise<{ text: string; totalChars: number } | null>;
}
