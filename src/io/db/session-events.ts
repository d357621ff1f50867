import { isPlainObject } from '../../core/shared/safe-parse-json.ts';

/** What other tabs need to hear about the session store, noun-verb like every event name. */
export type SessionEvent =
  | { readonly type: 'session-created'; readonly id: string }
  | { readonly type: 'session-updated'; readonly id: string }
  | { readonly type: 'session-rotated'; readonly oldId: string; readonly newId: string }
  | { readonly type: 'session-deleted'; readonly id: string };

export interface SessionEventPublisher {
  publish(event: SessionEvent): void;
}

/** The part of `BroadcastChannel` used here, so tests can inject a fake. */
export interface BroadcastChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  removeEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  close(): void;
}

export const SESSION_EVENTS_CHANNEL = 'context-lab';

/**
 * Cross-tab announcements over one `BroadcastChannel`. A tab showing a session that another tab
 * rotated hears `session-rotated` and moves to the new id, the tip; lists refresh on the others.
 * A channel does not hear its own messages, so the writing tab updates itself directly.
 * Messages are untrusted data from another realm (another version of the app, say) and are
 * checked before listeners see them.
 */
export class SessionEvents implements SessionEventPublisher {
  readonly #channel: BroadcastChannelLike | null;
  readonly #listeners = new Set<(event: SessionEvent) => void>();
  readonly #onMessage = (message: { data: unknown }): void => {
    const event = parseSessionEvent(message.data);
    if (event === null) return;
    for (const listener of this.#listeners) listener(event);
  };

  constructor(channel: BroadcastChannelLike | null = openBroadcastChannel()) {
    this.#channel = channel;
    this.#channel?.addEventListener('message', this.#onMessage);
  }

  publish(event: SessionEvent): void {
    this.#channel?.postMessage(event);
  }

  /** Returns the unsubscribe function. */
  subscribe(listener: (event: SessionEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  close(): void {
    this.#listeners.clear();
    this.#channel?.removeEventListener('message', this.#onMessage);
    this.#channel?.close();
  }
}

/** A message from another tab, if it is a well-formed session event. */
export function parseSessionEvent(data: unknown): SessionEvent | null {
  if (!isPlainObject(data)) return null;
  const text = (key: string): string | null => (typeof data[key] === 'string' ? data[key] : null);
  switch (data.type) {
    case 'session-created':
    case 'session-updated':
    case 'session-deleted': {
      const id = text('id');
      return id === null ? null : { type: data.type, id };
    }
    case 'session-rotated': {
      const oldId = text('oldId');
      const newId = text('newId');
      return oldId === null || newId === null ? null : { type: 'session-rotated', oldId, newId };
    }
    default:
      return null;
  }
}

function openBroadcastChannel(): BroadcastChannelLike | null {
  return typeof BroadcastChannel === 'function' ? new BroadcastChannel(SESSION_EVENTS_CHANNEL) : null;
}
