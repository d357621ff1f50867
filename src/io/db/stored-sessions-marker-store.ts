import type { StoredSessionsMarker } from '../../core/sessions/detect-lost-sessions.ts';
import { safeParseJson, isPlainObject } from '../../core/shared/safe-parse-json.ts';

/** The part of `Storage` (localStorage) used here, so tests can pass a Map-backed fake. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export const STORED_SESSIONS_MARKER_KEY = 'context-lab:stored-sessions';

/**
 * Keeps the stored-sessions marker in localStorage, not in IndexedDB: a row next to the sessions
 * would vanish with them. Chromium evicts a site's IndexedDB under storage pressure but leaves its
 * localStorage (not quota-managed there); a user who clears site data clears both, and no loss is
 * reported. Reading or writing never throws (storage disabled, quota): the check is a courtesy.
 */
export class StoredSessionsMarkerStore {
  readonly #storage: KeyValueStorage | null;

  constructor(storage: KeyValueStorage | null = defaultStorage()) {
    this.#storage = storage;
  }

  read(): StoredSessionsMarker | null {
    try {
      const text = this.#storage?.getItem(STORED_SESSIONS_MARKER_KEY);
      if (!text) return null;
      const parsed = safeParseJson(text);
      if (!parsed.ok || !isPlainObject(parsed.value)) return null;
      const { count, newestId } = parsed.value;
      if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) return null;
      if (newestId !== null && typeof newestId !== 'string') return null;
      return { count, newestId };
    } catch {
      return null;
    }
  }

  write(marker: StoredSessionsMarker): void {
    try {
      this.#storage?.setItem(STORED_SESSIONS_MARKER_KEY, JSON.stringify(marker));
    } catch {
      // A full or disabled localStorage: the next start simply cannot tell.
    }
  }
}

function defaultStorage(): KeyValueStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
