import type { CompressorState } from '../../core/compression/compressor-state.ts';
import type { CompactionEpochDetails, EpochStatus } from '../../core/sessions/compaction-epoch.ts';
import type { CompactionMode } from '../../core/sessions/compaction-mode.ts';

/**
 * One committed compaction (an epoch), v3. Besides what the sessions panel and the export read
 * (`CompactionEpochDetails`), it keeps what undo and redo need to move the conversation between
 * the two histories in one transaction: which rows each side holds, the compressor state and the
 * system prompt on each side. Nothing it names is ever deleted while the conversation is stored.
 */
export interface CompactionRow extends CompactionEpochDetails {
  /** Auto-incremented: commit order across the database. */
  id?: number;
  /** The session compacted: in place the one session, after a rotation the parent. */
  sessionId: string;
  /** Rotation: the continuation holding the result; null in place. */
  childSessionId: string | null;
  mode: CompactionMode;
  status: EpochStatus;
  createdAt: number;
  changedAt: number;
  /**
   * Rows of the history the compaction replaced: in place, the rows it archived (`active=0,
   * compacted=1`) and undo makes live again; after a rotation, the parent's live rows.
   */
  replacedMessageIds: number[];
  /**
   * Rows of the compacted history: in place, the rows it inserted (undo hides them as
   * `active=0, compacted=0`); after a rotation, the child's first rows.
   */
  resultMessageIds: number[];
  /**
   * Rotation only: rows stored after the compaction on whichever side was live. Undo moves the
   * child's later turns to the parent and redo moves them back, so neither side loses a turn;
   * in place they simply stay where they are (their ids come after both histories).
   */
  carriedMessageIds: number[];
  compressorStateBefore: CompressorState | null;
  compressorStateAfter: CompressorState;
  systemPromptBefore: string | null;
  systemPromptAfter: string | null;
}

/** A row as read back: the id is set. */
export type StoredCompactionRow = CompactionRow & { id: number };
