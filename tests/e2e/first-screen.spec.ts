import { expect, test } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';

test.describe('first screen', () => {
  test('opens on the demo with exact counts from the worker', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await page.goto('/');
    await expect(page.getByTestId('session-title')).toContainText('Demo');
    const messageCount = Number((await page.getByTestId('message-count').textContent())?.replace(/,/g, ''));
    expect(messageCount).toBeGreaterThanOrEqual(40);
    await expect(page.getByTestId('token-bar').locator('.segment').first()).toBeVisible();
    // Exact counts arrive from the worker after the encoding has loaded.
    await expect(page.getByTestId('exact-total')).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
    const exactTotal = Number((await page.getByTestId('exact-total').textContent())?.replace(/[^0-9]/g, ''));
    expect(exactTotal).toBeGreaterThan(50_000);
    await expect(page.getByTestId('message-row').first().getByTestId('exact-tokens')).not.toHaveText('…');
    await page.screenshot({ path: test.info().outputPath('first-screen.png'), fullPage: true });
    expect(errors).toEqual([]);
  });

  test('counts really happen in a worker', async ({ page }) => {
    const rankRequests: string[] = [];
    page.on('request', (request) => {
      if (/o200k_base/.test(request.url())) rankRequests.push(request.url());
    });
    await page.goto('/');
    await expect(page.getByTestId('exact-total')).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
    expect(page.workers().length).toBeGreaterThan(0);
    expect(rankRequests.length).toBeGreaterThan(0);
    // The rank table was fetched, but not by the page: the worker loaded it.
    const loadedByPage = await page.evaluate(() =>
      performance.getEntriesByType('resource').some((entry) => /o200k_base/.test(entry.name)),
    );
    expect(loadedByPage).toBe(false);
  });

  test('the selected encoding is saved to IndexedDB and survives a reload', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await page.goto('/');
    await expect(page.getByTestId('exact-total')).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
    const o200kTotal = await page.getByTestId('exact-total').textContent();
    await page.getByTestId('setting-estimator').selectOption('cl100k_base');
    await expect(page.getByTestId('exact-total')).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
    await expect(page.getByTestId('exact-total')).not.toHaveText(o200kTotal ?? '');
    const stored = await page.evaluate(
      () =>
        new Promise<unknown>((resolve, reject) => {
          const request = indexedDB.open('context-lab');
          request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
          request.onsuccess = () => {
            const read = request.result.transaction('settings').objectStore('settings').get('estimator');
            read.onsuccess = () => resolve((read.result as { value: unknown } | undefined)?.value);
            read.onerror = () => reject(read.error ?? new Error('IndexedDB request failed'));
          };
        }),
    );
    expect(stored).toBe('cl100k_base');
    await page.reload();
    await expect(page.getByTestId('setting-estimator')).toHaveValue('cl100k_base');
    await expect(page.getByTestId('exact-total')).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
    expect(errors).toEqual([]);
  });
});
