import { expect, test, type Page } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';
import { openLab, readRegions } from './lab-helpers.ts';

/** The demo's #23: an assistant answer (no tool calls) that Hermes 2026-04 summarises. */
const PIN = 23;
const ROW_HEIGHT_PX = 40;

/** Scrolls the virtualised message list until row `index` is drawn, and returns it. */
async function rowAt(page: Page, index: number) {
  await page
    .getByTestId('message-list')
    .evaluate((list, top) => list.scrollTo({ top }), Math.max(0, index * ROW_HEIGHT_PX - 120));
  const row = page.locator(`[data-testid="message-row"][data-index="${index}"]`);
  await expect(row).toBeVisible();
  return row;
}

/** The detail's text of the one pinned message on screen, found by its pin on the map. */
async function pinnedDetailText(page: Page): Promise<string> {
  const marker = page.getByTestId('map-marker-pin');
  await expect(marker).toHaveCount(1);
  const row = await rowAt(page, Number(await marker.getAttribute('data-index')));
  await expect(row).toHaveAttribute('data-pinned', 'true');
  await row.click();
  await expect(page.getByTestId('detail-pin')).toHaveAttribute('data-pinned', 'true');
  return (await page.getByTestId('detail-text').textContent()) ?? '';
}

test.describe('pinned messages', () => {
  test('a pin in the summarised middle survives the replay verbatim, the plan says so, and the stored pin survives a reload', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    const middle = (await readRegions(page)).find((region) => region.region === 'middle')!;
    expect(middle.start).toBeLessThanOrEqual(PIN);
    expect(middle.end).toBeGreaterThan(PIN);

    // Pin #23 from its row: marked at once, counted, and the detail shows the same pin.
    const row = await rowAt(page, PIN);
    await expect(row.getByTestId('message-pin')).toHaveAttribute('data-pinned', 'false');
    await row.getByTestId('message-pin').click();
    await expect(row).toHaveAttribute('data-pinned', 'true');
    await expect(row.getByTestId('message-pin')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('pinned-count')).toHaveText('1');
    await row.click();
    const detailPin = page.getByTestId('detail-pin');
    await expect(detailPin).toHaveAttribute('data-pinned', 'true');
    const original = (await page.getByTestId('detail-text').textContent()) ?? '';
    expect(original.length).toBeGreaterThan(0);

    // Keyboard: the detail's toggle unpins with Space and pins again with Enter.
    await detailPin.focus();
    await page.keyboard.press('Space');
    await expect(row).toHaveAttribute('data-pinned', 'false');
    await expect(page.getByTestId('pinned-count')).toHaveCount(0);
    await page.keyboard.press('Enter');
    await expect(row).toHaveAttribute('data-pinned', 'true');

    // The plan keeps it: on the map and in words.
    await page.getByTestId('tab-plan').click();
    await expect(page.getByTestId('plan-pins')).toContainText('1 pinned message kept verbatim.');
    await expect(page.getByTestId('plan-pins')).toContainText(
      `Pinned message #${PIN} kept verbatim: this strategy would have summarised it.`,
    );
    const marker = page.locator(`[data-testid="map-marker-pin"][data-index="${PIN}"]`);
    await expect(marker).toHaveAttribute('data-rescued', 'summarized');
    await expect(page.getByTestId('map-legend-pins')).toHaveAttribute('data-count', '1');

    // The replay keeps it verbatim and says so.
    await page.getByTestId('tab-replay').click();
    await page.getByTestId('replay-run').click();
    await expect(page.getByTestId('replay-result')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('replay-notes')).toContainText(
      `Pinned message #${PIN} kept verbatim: this strategy would have summarised it.`,
    );
    await expect(page.getByTestId('replay-pins')).toHaveText('1 pinned message kept verbatim.');
    const pinnedInResult = page.getByTestId('replay-diff').locator('[data-pinned="true"]');
    await expect(pinnedInResult).toHaveCount(1);
    await expect(pinnedInResult).toHaveAttribute('data-source', String(PIN));
    await expect(pinnedInResult).toHaveAttribute('data-status', 'kept');
    await page.screenshot({ path: test.info().outputPath('pins-replay.png') });

    // Saved (the demo is stored first, with its pin), then opened: the pin points at the same text.
    await page.getByTestId('replay-save').click();
    await expect(page.getByTestId('summary-editor')).toBeVisible();
    await page.getByTestId('compaction-commit').click();
    await expect(page.getByTestId('replay-save-status')).toContainText('Saved as continuation session', {
      timeout: 30_000,
    });
    await page.getByTestId('replay-open').click();
    await expect(page.getByTestId('pinned-count')).toHaveText('1');
    expect(await pinnedDetailText(page)).toBe(original);

    // After a reload the stored sessions keep their pins: the continuation's (the reload reopens
    // it, the session on screen), and the demo's #23.
    await page.reload();
    await expect(page.getByTestId('session-title')).toContainText('#2', { timeout: 30_000 });
    await expect(page.getByTestId('pinned-count')).toHaveText('1');
    expect(await pinnedDetailText(page)).toBe(original);
    await page.getByTestId('tab-sessions').click();
    const conversation = page.getByTestId('conversation').first();
    await conversation.getByRole('button').first().click();
    await page.getByTestId('conversation-open').click();
    await expect(page.getByTestId('pinned-count')).toHaveText('1');
    expect(await pinnedDetailText(page)).toBe(original);
    await page.getByTestId('lineage-view').getByTestId('segment-open').first().click();
    await expect(page.getByTestId('message-count')).toHaveText('49');
    await expect(page.getByTestId('pinned-count')).toHaveText('1');
    await expect(await rowAt(page, PIN)).toHaveAttribute('data-pinned', 'true');
    expect(errors).toEqual([]);
  });
});
