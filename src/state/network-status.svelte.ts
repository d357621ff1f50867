/** Where the browser reports its connection: `navigator.onLine` and `window`'s online/offline events. */
export interface NetworkStatusSource {
  isOnline(): boolean;
  events: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
}

/**
 * Whether the browser has a network connection, kept current by its `online` / `offline`
 * events. `false` is reliable (no interface is up); `true` only means one is, so a provider may
 * still be unreachable, and a local server on loopback is reachable while this says offline.
 */
export class NetworkStatus {
  readonly #source: NetworkStatusSource;
  #online = $state(true);
  #stop: (() => void) | null = null;

  constructor(source: NetworkStatusSource) {
    this.#source = source;
    this.#online = source.isOnline();
  }

  get online(): boolean {
    return this.#online;
  }

  /** Follows the browser's events until `stop`; calling it twice does nothing more. */
  start(): void {
    if (this.#stop) return;
    const update = (): void => {
      this.#online = this.#source.isOnline();
    };
    this.#source.events.addEventListener('online', update);
    this.#source.events.addEventListener('offline', update);
    update();
    this.#stop = () => {
      this.#source.events.removeEventListener('online', update);
      this.#source.events.removeEventListener('offline', update);
    };
  }

  stop(): void {
    this.#stop?.();
    this.#stop = null;
  }
}
