import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';

// One config for the app and the unit tests. End-to-end tests have their own
// Playwright config in tests/e2e/ because the top level of the repo is fixed.
export default defineConfig({
  plugins: [svelte({ compilerOptions: { runes: true } }), svelteTesting()],
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
