import type { AppServiceWorker, AppServiceWorkerEvents } from '../io/offline/register-app-service-worker.ts';

/** Registers the service worker (a lazy import in main.ts), or null where there is none: dev, tests. */
export type RegisterAppServiceWorker = (events: AppServiceWorkerEvents) => Promise<AppServiceWorker>;

/**
 * The installable, offline app's life cycle as the page sees it: whether everything is cached
 * for offline use, whether a newly deployed version is waiting, and the Reload that lets it take
 * over. Nothing here blocks the app; every notice can be dismissed.
 */
export class AppUpdateState {
  readonly #register: RegisterAppServiceWorker | null;
  #worker: AppServiceWorker | null = null;
  #updateReady = $state(false);
  #offlineReady = $state(false);
  #reloading = $state(false);
  #error = $state<string | null>(null);

  constructor(register: RegisterAppServiceWorker | null) {
    this.#register = register;
  }

  /** A new version is installed and waits for a reload. */
  get updateReady(): boolean {
    return this.#updateReady;
  }

  /** The first install finished: the app opens, imports and replays with no network. */
  get offlineReady(): boolean {
    return this.#offlineReady;
  }

  get reloading(): boolean {
    return this.#reloading;
  }

  /** Why offline use is unavailable (the registration failed), or null. */
  get error(): string | null {
    return this.#error;
  }

  async start(): Promise<void> {
    if (!this.#register || this.#worker) return;
    try {
      this.#worker = await this.#register({
        onUpdateReady: () => {
          this.#updateReady = true;
          // Both notices at once would crowd the bar; the update is the one that needs an answer.
          this.#offlineReady = false;
        },
        onOfflineReady: () => {
          if (!this.#updateReady) this.#offlineReady = true;
        },
        onError: (error) => {
          this.#error = describe(error);
        },
      });
    } catch (error) {
      this.#error = describe(error);
    }
  }

  /** Lets the waiting version take over; the page reloads when it does. */
  async reload(): Promise<void> {
    if (!this.#worker || !this.#updateReady || this.#reloading) return;
    this.#reloading = true;
    try {
      await this.#worker.activateUpdate();
    } catch (error) {
      this.#reloading = false;
      this.#error = describe(error);
    }
  }

  /** "Later": the new version takes over at the next visit instead. */
  dismissUpdate(): void {
    this.#updateReady = false;
  }

  dismissOfflineReady(): void {
    this.#offlineReady = false;
  }

  dismissError(): void {
    this.#error = null;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
