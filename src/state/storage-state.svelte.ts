import { liveQuery } from 'dexie';
import { detectLostSessions, type StoredSessionsMarker } from '../core/sessions/detect-lost-sessions.ts';
import type { BrowserStorage, StorageEstimateBytes } from '../io/db/browser-storage.ts';

// The UI may not import io (layer rule): it gets the estimate's shape from here.
export type { StorageEstimateBytes };

/**
 * `persistent`: the browser keeps this site's data under storage pressure; `best-effort`: it may
 * delete all of it when the disk runs low; `unsupported`: the browser cannot say.
 */
export type StoragePersistence = 'checking' | 'persistent' | 'best-effort' | 'unsupported';

export interface StorageStateDependencies {
  storage: BrowserStorage;
  /** The session store's figures, read once at start and then followed live. */
  sessions: {
    storedSessionsSummary(): Promise<StoredSessionsMarker>;
    getSession(id: string): Promise<unknown>;
  };
  /** Where the figures of the last run are kept (localStorage: it outlives an IndexedDB eviction). */
  marker: { read(): StoredSessionsMarker | null; write(marker: StoredSessionsMarker): void };
}

/**
 * The browser storage behind the sessions (conventions C10: one bridge per outside source):
 * whether it is persistent (asked for at start), how much is used of the quota, and whether the
 * sessions stored at the last run are gone, which happens when a browser evicts a best-effort
 * site to free disk space and would otherwise go unnoticed.
 */
export class StorageState {
  readonly #deps: StorageStateDependencies;
  #persistence = $state<StoragePersistence>('checking');
  #estimate = $state.raw<StorageEstimateBytes | null>(null);
  #lostSessions = $state(0);
  #started: Promise<void> | null = null;
  #subscription: { unsubscribe(): void } | null = null;

  constructor(deps: StorageStateDependencies) {
    this.#deps = deps;
  }

  get persistence(): StoragePersistence {
    return this.#persistence;
  }

  get estimate(): StorageEstimateBytes | null {
    return this.#estimate;
  }

  /** Sessions stored at the last run that are gone now (0: none, or nothing to compare with). */
  get lostSessions(): number {
    return this.#lostSessions;
  }

  dismissLostSessions(): void {
    this.#lostSessions = 0;
  }

  /**
   * Compares the store with the last run's marker before anything can write, then keeps the
   * marker current for every later change (in this tab or another), and asks for persistence.
   */
  start(): Promise<void> {
    this.#started ??= this.#start();
    return this.#started;
  }

  async #start(): Promise<void> {
    await this.#checkForLostSessions();
    this.#subscription = liveQuery(() => this.#deps.sessions.storedSessionsSummary()).subscribe({
      next: (summary) => {
        this.#deps.marker.write(summary);
        void this.refreshEstimate();
      },
      // The marker stays as it was; the next change tries again.
      error: () => undefined,
    });
    await this.#askForPersistence();
  }

  /** Stops following the store (tests; the app keeps it for the page's life). */
  stop(): void {
    this.#subscription?.unsubscribe();
    this.#subscription = null;
  }

  async #checkForLostSessions(): Promise<void> {
    try {
      const lastRun = this.#deps.marker.read();
      const summary = await this.#deps.sessions.storedSessionsSummary();
      const newestIdPresent =
        lastRun?.newestId != null && (await this.#deps.sessions.getSession(lastRun.newestId)) !== undefined;
      this.#lostSessions = detectLostSessions(lastRun, { count: summary.count, newestIdPresent });
      this.#deps.marker.write(summary);
    } catch {
      // An unreadable store is reported where the sessions are listed.
    }
  }

  async #askForPersistence(): Promise<void> {
    const persisted = await this.#deps.storage.persisted();
    if (persisted === null) {
      this.#persistence = 'unsupported';
      return;
    }
    if (persisted) {
      this.#persistence = 'persistent';
      return;
    }
    await this.requestPersistence();
  }

  /** Asks the browser to keep this site's data (again, after a refusal: engagement may have grown). */
  async requestPersistence(): Promise<void> {
    const granted = await this.#deps.storage.persist();
    this.#persistence = granted === null ? 'unsupported' : granted ? 'persistent' : 'best-effort';
  }

  async refreshEstimate(): Promise<void> {
    this.#estimate = await this.#deps.storage.estimate();
  }
}
