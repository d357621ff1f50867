import type { Message } from '../../core/transcript/message.ts';

/**
 * A stored message. `id` is auto-incremented and is the ordering key within a session
 * (timestamps from imports are not monotonic), as in Hermes' `messages.id`.
 */
export interface MessageRow {
  id?: number;
  sessionId: string;
  /** The internal message object, stored whole so no key is lost. */
  message: Message;
  createdAt: number;
}
