import { registerSW } from 'virtual:pwa-register';

export interface AppServiceWorkerEvents {
  /** A new version is installed and waiting; it takes over when the user reloads from the notice. */
  onUpdateReady(): void;
  /** The first install finished: every asset is cached, the app now opens without a network. */
  onOfflineReady(): void;
  onError(error: unknown): void;
}

export interface AppServiceWorker {
  /** Lets the waiting version take over; the page reloads once it controls the page. */
  activateUpdate(): Promise<void>;
}

/** A tab left open for days still learns about a new deployment. */
export const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Registers the Workbox service worker that vite-plugin-pwa generates (production builds only;
 * see vite.config.ts). The registration code and workbox-window load with this module, never
 * with the first screen. Update checks are skipped while the browser is offline.
 */
export function registerAppServiceWorker(events: AppServiceWorkerEvents): AppServiceWorker {
  const activate = registerSW({
    immediate: true,
    // Reloading is ours (below): the library reloads only when the page was already controlled
    // when it registered, which the first visit's page (taken over by clientsClaim) never was.
    onNeedReload: () => undefined,
    onNeedRefresh: () => events.onUpdateReady(),
    onOfflineReady: () => events.onOfflineReady(),
    onRegisterError: (error: unknown) => events.onError(error),
    onRegisteredSW: (_url, registration) => {
      if (!registration) return;
      setInterval(() => {
        if (navigator.onLine) void registration.update().catch(() => undefined);
      }, UPDATE_CHECK_INTERVAL_MS);
    },
  });
  return {
    activateUpdate: async () => {
      navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
        once: true,
      });
      await activate(true);
    },
  };
}
