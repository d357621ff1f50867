import { HERMES_2026_04 } from '../core/presets/hermes-2026-04.ts';
import { AppDb } from '../io/db/app-db.ts';
import { createBrowserStorage } from '../io/db/browser-storage.ts';
import { deleteOrphanedMessages } from '../io/db/delete-orphaned-messages.ts';
import { SessionEvents } from '../io/db/session-events.ts';
import { SessionRepository } from '../io/db/session-repository.ts';

let repository: SessionRepository | null = null;

/** Hex digits from the worker's cryptographic random source (session ids). */
function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
}

/**
 * The session store as the worker uses it: the same database and the same repository code as the
 * page (Dexie runs in a worker), its own connection. Opened on first use; that first use also
 * clears, in the background, what an import interrupted by a closed tab left behind.
 *
 * Every call that depends on the preset's chain rules passes its preset explicitly, so the
 * repository's own default is never consulted for them.
 */
export function workerSessionStore(): SessionRepository {
  if (repository === null) {
    const db = new AppDb();
    const storage = createBrowserStorage();
    repository = new SessionRepository(db, {
      now: Date.now,
      randomHex,
      preset: () => HERMES_2026_04,
      // Other tabs hear about sessions this worker stores; Dexie tells this tab's live queries.
      events: new SessionEvents(),
      storageEstimate: () => storage.estimate(),
    });
    void deleteOrphanedMessages(db).catch(() => undefined);
  }
  return repository;
}

/** Tests: the worker's API over a repository of their own (fake-indexeddb, a fixture clock). */
export function useSessionStore(store: SessionRepository | null): void {
  repository = store;
}
