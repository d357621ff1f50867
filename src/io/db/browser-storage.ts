/** How much this site stores and may store, as the browser estimates it. */
export interface StorageEstimateBytes {
  readonly usageBytes: number;
  readonly quotaBytes: number;
}

/**
 * The browser's storage manager (`navigator.storage`), or the part of it the app uses. Every
 * method answers null where the browser has no such API (older browsers, some test setups).
 */
export interface BrowserStorage {
  estimate(): Promise<StorageEstimateBytes | null>;
  /** Whether this site's storage is persistent: kept under storage pressure. */
  persisted(): Promise<boolean | null>;
  /** Asks for persistent storage; Chromium decides without a prompt (site engagement, bookmarks). */
  persist(): Promise<boolean | null>;
}

/** The subset of `StorageManager` used, so tests can pass a fake. */
export interface StorageManagerLike {
  estimate?: () => Promise<{ usage?: number; quota?: number }>;
  persisted?: () => Promise<boolean>;
  persist?: () => Promise<boolean>;
}

export function createBrowserStorage(
  manager: StorageManagerLike | undefined = globalThis.navigator?.storage,
): BrowserStorage {
  // An API that throws (a sandboxed frame, a browser bug) is treated as absent, never as fatal.
  const ask = async <T>(call: (() => Promise<T>) | undefined): Promise<T | null> => {
    if (!call) return null;
    try {
      return await call();
    } catch {
      return null;
    }
  };
  return {
    async estimate() {
      const estimate = await ask(manager?.estimate?.bind(manager));
      if (!estimate || typeof estimate.quota !== 'number' || typeof estimate.usage !== 'number') return null;
      return { usageBytes: estimate.usage, quotaBytes: estimate.quota };
    },
    persisted: () => ask(manager?.persisted?.bind(manager)),
    persist: () => ask(manager?.persist?.bind(manager)),
  };
}
