import { defineConfig, devices } from '@playwright/test';

// Ports are overridable so several checkouts (or engineers) can run the suite at once.
const PREVIEW_PORT = Number(process.env.E2E_PORT ?? 4173);
export const MOCK_PROVIDER_PORT = Number(process.env.MOCK_PROVIDER_PORT ?? 8787);
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: '../../test-results',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PREVIEW_PORT}`,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1440, height: 900 },
        launchOptions: {
          executablePath: chromiumPath,
          args: [
            '--headless',
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            '--no-first-run',
          ],
        },
      },
    },
  ],
  webServer: [
    {
      command: `npm run build && npx vite preview --port ${PREVIEW_PORT} --strictPort --host localhost`,
      cwd: '../..',
      url: `http://localhost:${PREVIEW_PORT}`,
      timeout: 180_000,
      reuseExistingServer: !process.env.CI,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // The mock LLM provider (Anthropic Messages + OpenAI Chat) the chat and provider tests talk to.
      command: `npx tsx tests/mock-provider/mock-provider-server.ts --port ${MOCK_PROVIDER_PORT} --host 127.0.0.1`,
      cwd: '../..',
      url: `http://127.0.0.1:${MOCK_PROVIDER_PORT}/health`,
      timeout: 60_000,
      reuseExistingServer: !process.env.CI,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
