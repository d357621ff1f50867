import { defineConfig } from 'vitest/config';
import type { Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { VitePWA } from 'vite-plugin-pwa';

/** The production service worker's URL (vite-plugin-pwa's default `filename`). */
const SERVICE_WORKER_PATH = '/sw.js';

/**
 * The dev server never registers a service worker, but a production build previewed earlier on
 * the same origin (`vite preview --port 5173`) may have left one that would keep serving the old
 * build instead of the dev server. The browser re-fetches the worker's script on navigation: the
 * dev server answers with a worker that unregisters itself and reloads its pages.
 */
function retireServiceWorkerInDev(): Plugin {
  const script = `self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => {
  event.waitUntil(
    self.registration.unregister().then(() => self.clients.matchAll({ type: 'window' })).then((clients) => {
      for (const client of clients) client.navigate(client.url);
    }),
  );
});
`;
  return {
    name: 'context-lab:retire-service-worker-in-dev',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        if (request.url?.split('?')[0] !== SERVICE_WORKER_PATH) return next();
        response.setHeader('content-type', 'text/javascript');
        response.setHeader('cache-control', 'no-store');
        response.end(script);
      });
    },
  };
}

// One config for the app and the unit tests. End-to-end tests have their own
// Playwright config in tests/e2e/ because the top level of the repo is fixed.
export default defineConfig({
  plugins: [
    svelte({ compilerOptions: { runes: true } }),
    svelteTesting(),
    // Installable and offline (README, Decisions): the manifest, and a Workbox service worker that
    // precaches the app shell, every lazy chunk and the tokenizer rank tables. `prompt`: a new
    // version waits until the user reloads from the notice (src/state/app-update-state.svelte.ts);
    // main.ts registers it in production builds only.
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      filename: SERVICE_WORKER_PATH.slice(1),
      devOptions: { enabled: false },
      manifest: {
        id: '/',
        name: 'Context Lab',
        short_name: 'Context Lab',
        description: 'See and control what an LLM keeps of a long conversation.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#16171a',
        background_color: '#16171a',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        // The o200k rank table is a 2 MB chunk, over Workbox's 2 MiB default.
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        navigateFallback: 'index.html',
        cleanupOutdatedCaches: true,
        // The first install takes over the open page at once, so a lazy chunk it has not loaded
        // yet (the chat, an SDK) still comes from the cache if the network goes in this visit.
        // Later versions wait for the notice's Reload (no skipWaiting), so a page never runs
        // chunks of two builds.
        clientsClaim: true,
      },
    }),
    retireServiceWorkerInDev(),
  ],
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    // The lazily loaded tiktoken rank tables are 1-2 MB each; they are never on the first load.
    chunkSizeWarningLimit: 2600,
  },
  server: { host: 'localhost' },
  preview: { host: 'localhost' },
  test: {
    environment: 'node',
    include: ['tests/**/*.test.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    setupFiles: ['tests/setup/unit-setup.ts'],
    testTimeout: 60_000,
    pool: 'threads',
  },
});
