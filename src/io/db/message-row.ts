import type { Message } from '../../core/transcript/message.ts';

/** Hermes' message flags as 0/1 numbers, not booleans: IndexedDB cannot index booleans. */
export type MessageFlag = 0 | 1;

/**
 * A stored message. `id` is auto-incremented and is the ordering key within a session
 * (timestamps from imports are not monotonic), as in Hermes' `messages.id`.
 *
 * Flags as in Hermes (hermes-reference §11): live is `active=1`; rewound is `active=0,
 * compacted=0` (hidden, not searched); archived by in-place compaction is `active=0,
 * compacted=1` (not loaded as the live transcript, still searched and exported).
 */
export interface MessageRow {
  id?: number;
  sessionId: string;
  /** The internal message object, stored whole so no key is lost. */
  message: Message;
  createdAt: number;
  /** v2 */
  active: MessageFlag;
  /** v2 */
  compacted: MessageFlag;
  /**
   * The user pinned this message: every compaction keeps it verbatim (ROUND2 §3). Set only on
   * pinned rows (absent = not pinned), not indexed, so v3 needs no new version. The flag
   * travels with its row: an undo that makes archived rows live again brings their pins back,
   * and a compaction writes it on the rows that hold the pinned messages it kept.
   */
  pinned?: 1;
}
