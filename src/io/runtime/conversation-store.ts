/**
 * What the runtime needs from storage: the narrow slice of the session repository it uses, so
 * the loop can be read (and faked) without the whole repository. `session-repository-store.ts`
 * adapts the IndexedDB `SessionRepository` to it.
 */
import type { CompressorState } from '../../core/compression/compressor-state.ts';
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
}

export interface NewChatSession {
  readonly title: string;
  readonly model: string | null;
  readonly systemPrompt: string;
  readonly provider: string | null;
  readonly baseUrl: string | null;
}

/** The session was rotated (by another tab, usually) before this write: it continues at the tip. */
export interface SessionMoved {
  readonly type: 'SessionMoved';
  readonly tipSessionId: string;
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
  appendMessages(sessionId: string, messages: readonly Message[]): Promise<Result<void, SessionMoved>>;
  loadMessages(sessionId: string): Promise<Message[]>;
  /** Ends `oldId` with reason `compression` and creates the child holding `compressed`, in one transaction. */
  rotateForCompression(
    oldId: string,
    compressed: readonly Message[],
    options: { readonly compressorState: CompressorState; readonly systemPrompt: string },
  ): Promise<Result<StoredChatSession, SessionMoved>>;
  /** The newest continuation of `sessionId` (itself when it was never compacted). */
  getCompressionTip(sessionId: string): Promise<string>;
  resolveResumeSessionId(sessionId: string): Promise<string>;
  addUsage(
    sessionId: string,
    usage: CanonicalUsage,
    costUsd: number,
    model: string,
    options?: { readonly compaction?: boolean },
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
