import type { StorageFullError } from './storage-full-error.ts';

export interface SessionNotFoundError {
  readonly type: 'SessionNotFound';
  readonly sessionId: string;
}

/**
 * The session has already ended — typically another tab rotated it for compression. Writing
 * to it would fork the conversation; `tipSessionId` is where it continues.
 */
export interface SessionAlreadyEndedError {
  readonly type: 'SessionAlreadyEnded';
  readonly sessionId: string;
  readonly endReason: string | null;
  readonly tipSessionId: string;
}

/** The stored message is not (or no longer) in the session (a pin of a deleted or moved row). */
export interface MessageNotFoundError {
  readonly type: 'MessageNotFound';
  readonly sessionId: string;
  readonly messageId: number;
  readonly message: string;
}

/** Another session already has this title (Hermes keeps non-null titles unique). */
export interface TitleInUseError {
  readonly type: 'TitleInUse';
  readonly title: string;
  readonly sessionId: string;
}

/** A batched import was cancelled; what it had written is removed. */
export interface StoreCancelledError {
  readonly type: 'StoreCancelled';
  readonly message: string;
}

export type SessionStoreError =
  | StorageFullError
  | SessionNotFoundError
  | SessionAlreadyEndedError
  | TitleInUseError
  | HistoryChangedError
  | NoEpochError;

/**
 * The live history is no longer the one a compaction, undo or redo was worked out from — another
 * tab added turns or changed the compactions meanwhile. Nothing was written; reload and retry.
 */
export interface HistoryChangedError {
  readonly type: 'HistoryChanged';
  readonly sessionId: string;
  readonly message: string;
}

/** Undo or redo found no compaction to revert or re-apply on the live session. */
export interface NoEpochError {
  readonly type: 'NothingToUndo' | 'NothingToRedo';
  readonly sessionId: string;
  readonly message: string;
}
