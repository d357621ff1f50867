/**
 * Whether the worker is storing a transcript in batches, so other long work can wait its turn.
 * Why: the worker's one thread issues every IndexedDB request of a store, and exact counting
 * took the same thread in 12 ms slices between them; storing a 100 MiB import beside its first
 * exact count took 10.4–11.1 s, with the count waiting for it 7.7–8.0 s (same run, load 4–5).
 * The map is drawn from rough counts meanwhile, and the exact ones follow once it is stored.
 */
export class StoreActivity {
  #active = 0;
  #waiters: Array<() => void> = [];

  /** Runs `store`, marking the worker busy storing until it settles. */
  async during<T>(store: () => Promise<T>): Promise<T> {
    this.#active += 1;
    try {
      return await store();
    } finally {
      this.#active -= 1;
      if (this.#active === 0) for (const wake of this.#waiters.splice(0)) wake();
    }
  }

  get storing(): boolean {
    return this.#active > 0;
  }

  /** Resolves at once when nothing is being stored, else when the last store settles. */
  idle(): Promise<void> {
    if (this.#active === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}
