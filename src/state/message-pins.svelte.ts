/**
 * Stores one pin: resolves once it is kept (or when there is nowhere to keep it: an unstored
 * transcript keeps its pins in memory), throws with the reason when it could not be.
 */
export type StorePin = (index: number, pinned: boolean) => Promise<void>;

/**
 * The pinned messages of the transcript on screen, by index (ROUND2 §3: a pinned message
 * survives every strategy verbatim). A pin shows at once; storing it (on the stored session,
 * when there is one) follows, and a pin that could not be stored is taken back with the reason
 * in `error`. Opening another transcript replaces the set without storing anything.
 */
export class MessagePins {
  readonly #store: StorePin;
  #generation = 0;
  #listeners: (() => void)[] = [];

  #pinned = $state.raw<ReadonlySet<number>>(new Set());
  /** Why the last pin could not be stored; cleared by the next change. */
  error = $state<string | null>(null);

  /** The pinned indices, ascending. */
  readonly indices: readonly number[] = $derived([...this.#pinned].sort((left, right) => left - right));

  constructor(store: StorePin) {
    this.#store = store;
  }

  get count(): number {
    return this.#pinned.size;
  }

  has(index: number): boolean {
    return this.#pinned.has(index);
  }

  /** Calls `listener` whenever the set of pins changes. */
  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  /** The pins of a transcript just opened (what its session stores, or none); nothing is stored. */
  reset(indices: Iterable<number>): void {
    this.#generation += 1;
    this.error = null;
    this.#replace(new Set(indices));
  }

  /** Pins message `index`, or unpins it; resolves once the change is stored or taken back. */
  async toggle(index: number): Promise<void> {
    await this.set(index, !this.#pinned.has(index));
  }

  async set(index: number, pinned: boolean): Promise<void> {
    if (!Number.isInteger(index) || index < 0 || this.#pinned.has(index) === pinned) return;
    const generation = this.#generation;
    this.error = null;
    this.#replace(withIndex(this.#pinned, index, pinned));
    try {
      await this.#store(index, pinned);
    } catch (error) {
      // Another transcript is on screen by now: its pins are not this one's to take back.
      if (generation !== this.#generation) return;
      if (this.#pinned.has(index) === pinned) this.#replace(withIndex(this.#pinned, index, !pinned));
      this.error = `Could not ${pinned ? 'pin' : 'unpin'} message #${index}: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  #replace(next: ReadonlySet<number>): void {
    this.#pinned = next;
    for (const listener of this.#listeners) listener();
  }
}

function withIndex(set: ReadonlySet<number>, index: number, present: boolean): ReadonlySet<number> {
  const next = new Set(set);
  if (present) next.add(index);
  else next.delete(index);
  return next;
}
