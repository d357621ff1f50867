import { liveQuery } from 'dexie';
import { createSubscriber } from 'svelte/reactivity';

/**
 * The one bridge from Dexie's `liveQuery` to runes (conventions C10): `current` holds the
 * querier's latest result and follows every committed change to what it read, in this tab and in
 * others (Dexie propagates changes across tabs itself). The subscription opens when an effect
 * first reads `current` and closes when no effect reads it any more, so an unseen panel costs
 * nothing.
 */
export class LiveQueryState<T> {
  #value: T;
  #loaded = $state(false);
  #error = $state<string | null>(null);
  readonly #subscribe: () => void;

  constructor(querier: () => Promise<T>, initial: T) {
    this.#value = $state.raw(initial);
    this.#subscribe = createSubscriber(() => {
      const subscription = liveQuery(querier).subscribe({
        next: (value) => {
          this.#value = value;
          this.#loaded = true;
          this.#error = null;
        },
        // The previous result stays on screen; the error says why it is not fresh.
        error: (error: unknown) => {
          this.#error = error instanceof Error ? error.message : String(error);
          this.#loaded = true;
        },
      });
      return () => subscription.unsubscribe();
    });
  }

  get current(): T {
    this.#subscribe();
    return this.#value;
  }

  /** True once the first result (or error) arrived. */
  get loaded(): boolean {
    this.#subscribe();
    return this.#loaded;
  }

  get error(): string | null {
    this.#subscribe();
    return this.#error;
  }
}
