import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { connectChatToMock, mock } from './chat-helpers.ts';
import { collectConsoleErrors } from './console-errors.ts';
import { messageCount, openLab } from './lab-helpers.ts';

/** The service worker the preview server serves (the build in dist/, made by the webServer command). */
const SERVICE_WORKER_FILE = resolve(import.meta.dirname, '../../dist/sw.js');

/** Waits until the app's service worker is active and controls the page. */
async function waitForServiceWorkerControl(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, {
    timeout: 30_000,
  });
}

/**
 * Records whether a service worker controlled the page when its first script ran. In a fresh
 * Playwright context (every test gets one) there is none: no worker left by an earlier test.
 */
async function recordControllerAtStart(page: Page): Promise<() => Promise<boolean>> {
  await page.addInitScript(() => {
    (window as { controlledAtStart?: boolean }).controlledAtStart ??=
      navigator.serviceWorker.controller !== null;
  });
  return () => page.evaluate(() => (window as { controlledAtStart?: boolean }).controlledAtStart === true);
}

/** Waits for the demo's context map, as openLab does, for a page that is already loaded. */
async function expectDemoOpen(page: Page): Promise<void> {
  await expect(page.getByTestId('context-map').locator('[data-region="tail"]')).toBeAttached({
    timeout: 30_000,
  });
}

test.describe('installable and offline', () => {
  test('has a web app manifest with installable icons and a standalone display', async ({
    page,
    request,
  }) => {
    await page.goto('/');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const manifest = (await (await request.get(href!)).json()) as {
      name: string;
      display: string;
      start_url: string;
      theme_color: string;
      icons: Array<{ src: string; sizes: string; type: string; purpose?: string }>;
    };
    expect(manifest).toMatchObject({ name: 'Context Lab', display: 'standalone', start_url: '/' });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    const pngSizes = manifest.icons.filter((icon) => icon.type === 'image/png').map((icon) => icon.sizes);
    expect(pngSizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons) {
      const response = await request.get(icon.src);
      expect(response.status(), icon.src).toBe(200);
      expect(response.headers()['content-type'], icon.src).toContain(icon.type);
    }
  });

  test('with the network off, a reload opens the demo and replays it', async ({ page, context }) => {
    const errors = collectConsoleErrors(page);
    const controlledAtStart = await recordControllerAtStart(page);
    await openLab(page);
    expect(await controlledAtStart()).toBe(false);
    const mapBefore = await page.getByTestId('context-map').boundingBox();
    await expect(page.getByTestId('offline-ready')).toBeVisible({ timeout: 30_000 });
    // The notice arrives while the user works: it floats, and nothing under the pointer moves.
    expect(await page.getByTestId('context-map').boundingBox()).toEqual(mapBefore);
    // Only its button takes the pointer: a click on its text selects the message row beneath.
    const text = (await page.getByTestId('offline-ready').locator('span').boundingBox())!;
    await page.mouse.click(text.x + 20, text.y + text.height / 2);
    await expect(page.locator('[data-testid="message-row"].selected')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await waitForServiceWorkerControl(page);
    const count = await messageCount(page);

    await context.setOffline(true);
    await page.reload();
    await expectDemoOpen(page);
    // This page came from the service worker (and the probe above can tell).
    expect(await controlledAtStart()).toBe(true);
    expect(await messageCount(page)).toBe(count);
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);

    // Replay with the offline summariser: the worker, the tokenizer's rank tables and every lazy
    // chunk come from the service worker's cache.
    await page.getByTestId('tab-replay').click();
    await page.getByTestId('replay-run').click();
    const result = page.getByTestId('replay-result');
    await expect(result).toBeVisible({ timeout: 30_000 });
    expect(Number(await result.getAttribute('data-messages-before'))).toBe(count);
    expect(Number(await result.getAttribute('data-messages-after'))).toBeLessThan(count);
    expect(Number(await result.getAttribute('data-tokens-after'))).toBeLessThan(
      Number(await result.getAttribute('data-tokens-before')),
    );
    await expect(page.getByTestId('replay-summarizer')).toHaveText('Offline summariser (no LLM)');
    await expect(page.getByTestId('replay-summary')).toContainText('## Goal');
    await page.screenshot({ path: test.info().outputPath('offline-replay.png') });
    expect(errors).toEqual([]);
  });

  test('offline, the chat says plainly that the provider needs the network, and answers once it is back', async ({
    page,
    context,
    request,
  }) => {
    const errors = collectConsoleErrors(page);
    await mock.reset(request);
    await openLab(page);
    await waitForServiceWorkerControl(page);
    await context.setOffline(true);
    // Configured while offline: the settings live in this browser, the page comes from the cache.
    await connectChatToMock(page);
    await expect(page.getByTestId('chat-offline')).toContainText('Offline: cloud providers are out of reach');
    await page.getByTestId('chat-input').fill('are you there?');
    await page.getByTestId('chat-send').click();
    await expect(page.getByTestId('chat-error')).toContainText(
      'You are offline: Anthropic cannot be reached without a network connection.',
    );
    await expect(page.getByTestId('chat-status')).toHaveAttribute('data-status', 'idle');
    // Said at once, not after the transient-failure retries.
    await expect(page.getByTestId('chat-notice').filter({ hasText: 'Retrying' })).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('offline-chat.png') });
    expect((await mock.requests(request)).filter((sent) => sent.path === '/v1/messages')).toHaveLength(0);

    await context.setOffline(false);
    await expect(page.getByTestId('chat-offline')).toHaveCount(0);
    await page.getByTestId('chat-retry').click();
    await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toContainText(
      'Mock reply to: are you there?',
    );
    // Only the refused provider request may complain, and only as the browser's own network error.
    expect(errors.filter((error) => !/ERR_INTERNET_DISCONNECTED/.test(error))).toEqual([]);
  });

  test('a newly deployed version waits for the Reload in the update notice', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const controlledAtStart = await recordControllerAtStart(page);
    await openLab(page);
    // The tests before this one installed the worker in their own contexts, not in this one.
    expect(await controlledAtStart()).toBe(false);
    await waitForServiceWorkerControl(page);
    const original = readFileSync(SERVICE_WORKER_FILE, 'utf8');
    try {
      // A new deployment: the service worker's script differs by a byte.
      writeFileSync(SERVICE_WORKER_FILE, `${original}\n// next deployment\n`);
      await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        await registration?.update();
      });
      await expect(page.getByTestId('app-update')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('app-update')).toContainText('A new version of Context Lab is ready.');
      // Nothing is blocked meanwhile: the app keeps working under the old version.
      await page.getByTestId('tab-replay').click();
      await expect(page.getByTestId('replay-run')).toBeEnabled();
      expect(
        await page.evaluate(async () => Boolean((await navigator.serviceWorker.getRegistration())?.waiting)),
      ).toBe(true);

      await Promise.all([page.waitForEvent('load'), page.getByTestId('app-update-reload').click()]);
      await expectDemoOpen(page);
      await waitForServiceWorkerControl(page);
      const after = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        return { waiting: Boolean(registration?.waiting), active: registration?.active?.state ?? null };
      });
      expect(after).toEqual({ waiting: false, active: 'activated' });
      await expect(page.getByTestId('app-update')).toHaveCount(0);
    } finally {
      writeFileSync(SERVICE_WORKER_FILE, original);
    }
    expect(errors).toEqual([]);
  });
});
