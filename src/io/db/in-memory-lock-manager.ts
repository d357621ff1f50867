import type { LockManagerLike } from './compaction-lock.ts';

/**
 * Exclusive named locks within one JavaScript realm, with the Web Locks `request` contract:
 * the callback runs while the lock is held and the lock is released when its promise settles;
 * with `ifAvailable` a held lock gives the callback `null` instead of waiting. Tests share one
 * instance between two "tabs"; browsers without `navigator.locks` use one per tab.
 */
export class InMemoryLockManager implements LockManagerLike {
  /** Per name, the promise the next holder waits for. */
  readonly #tails = new Map<string, Promise<void>>();

  async request<T>(
    name: string,
    options: { ifAvailable?: boolean },
    callback: (lock: { readonly name: string } | null) => Promise<T>,
  ): Promise<T> {
    const previous = this.#tails.get(name);
    if (previous !== undefined && options.ifAvailable === true) return callback(null);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const tail = (previous ?? Promise.resolve()).then(() => released);
    this.#tails.set(name, tail);
    try {
      await previous;
      return await callback({ name });
    } finally {
      release();
      // Only the last waiter clears the entry; a later request has already chained onto it.
      if (this.#tails.get(name) === tail) this.#tails.delete(name);
    }
  }

  /** Whether someone holds or waits for `name`. */
  isHeld(name: string): boolean {
    return this.#tails.has(name);
  }
}
