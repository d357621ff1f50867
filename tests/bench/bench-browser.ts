import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { build, preview, type PreviewServer } from 'vite';
import { BENCH_TMP_DIR, PROJECT_ROOT } from './bench-files.ts';

/** The flags of tests/e2e/playwright.config.ts. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * tsx compiles this bench with esbuild's keepNames, which wraps named functions in `__name(…)`;
 * functions handed to page.evaluate carry those calls into the page, where no `__name` exists.
 */
const KEEP_NAMES_SHIM = 'globalThis.__name = globalThis.__name || ((target) => target);';
/** First port tried; Vite moves up when it is taken (several engineers share the machine). */
const FIRST_PORT = 4573;

export interface BrowserSession {
  browser: Browser;
  chromiumVersion: string;
  /** The app as `npm run build` makes it, served by `vite preview`. */
  appUrl: string;
  appDir: string;
  /** tests/bench/page, built from the same sources with the app's Vite config. */
  benchUrl: string;
  /** A page ready for page.evaluate with functions from this bench. */
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Builds the app and the benchmark page into a temporary directory (never the shared dist/, which
 * e2e runs may be serving), previews both in this process, and launches Chromium.
 */
export async function startBrowserSession(log: (line: string) => void): Promise<BrowserSession> {
  // Per checkout: two worktrees benchmarking at once must not build over each other's app.
  const checkout = createHash('sha256').update(PROJECT_ROOT).digest('hex').slice(0, 8);
  const appDir = join(BENCH_TMP_DIR, `app-${checkout}`);
  const benchDir = join(BENCH_TMP_DIR, `bench-page-${checkout}`);
  const appConfig = {
    configFile: join(PROJECT_ROOT, 'vite.config.ts'),
    root: PROJECT_ROOT,
    logLevel: 'warn' as const,
  };
  const benchConfig = {
    configFile: join(PROJECT_ROOT, 'tests/bench/vite.bench.config.ts'),
    root: join(PROJECT_ROOT, 'tests/bench/page'),
    logLevel: 'warn' as const,
  };
  log('vite build: the app and the benchmark page');
  await build({ ...appConfig, build: { outDir: appDir, emptyOutDir: true } });
  await build({ ...benchConfig, build: { outDir: benchDir, emptyOutDir: true } });

  const servers: PreviewServer[] = [];
  let browser: Browser | null = null;
  const close = async (): Promise<void> => {
    await browser?.close().catch(() => undefined);
    await Promise.all(servers.map((server) => server.close().catch(() => undefined)));
  };
  try {
    const startPreview = async (config: typeof appConfig, outDir: string, port: number): Promise<string> => {
      const server = await preview({
        ...config,
        build: { outDir },
        preview: { port, strictPort: false, host: '127.0.0.1', open: false },
      });
      servers.push(server);
      const url = server.resolvedUrls?.local[0];
      if (!url) throw new Error('vite preview did not report its URL');
      return url;
    };
    const appUrl = await startPreview(appConfig, appDir, FIRST_PORT);
    const benchUrl = await startPreview(benchConfig, benchDir, FIRST_PORT + 1);
    log(`vite preview: app ${appUrl}, bench page ${benchUrl}; launching ${CHROMIUM_PATH}`);
    const launched = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      headless: true,
    });
    browser = launched;
    const newPage = async (): Promise<Page> => {
      // No service worker: its first-visit precache (4 MB) would run beside the measured work.
      const page = await launched.newPage({
        viewport: { width: 1440, height: 900 },
        serviceWorkers: 'block',
      });
      await page.addInitScript(KEEP_NAMES_SHIM);
      return page;
    };
    return {
      browser: launched,
      chromiumVersion: launched.version(),
      appUrl,
      appDir,
      benchUrl,
      newPage,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
