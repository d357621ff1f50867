import { expect, test } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';
import {
  expectValidRegions,
  messageCount,
  openLab,
  readRegions,
  waitForRegionsToChange,
} from './lab-helpers.ts';

test.describe('context map', () => {
  test('opens on the demo with five regions with valid half-open ranges', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    const count = await messageCount(page);
    const regions = await readRegions(page);
    expectValidRegions(regions, count);
    const [system, tools, head, middle, tail] = regions;
    expect(system!.end).toBe(1);
    expect(tools!.tokens).toBeGreaterThan(0);
    expect(head!.end).toBeGreaterThan(head!.start);
    expect(middle!.end).toBeGreaterThan(middle!.start);
    expect(tail!.tokens).toBeGreaterThan(0);
    // The message list colours rows by the same regions.
    await expect(page.getByTestId('message-row').first()).toHaveAttribute('data-region', 'system');
    // Markers for the threshold, the 85% line and the window.
    await expect(page.getByTestId('map-marker-threshold')).toHaveAttribute('data-tokens', '100000');
    await expect(page.getByTestId('map-marker-hygiene')).toHaveAttribute('data-tokens', '170000');
    await expect(page.getByTestId('map-marker-window')).toHaveAttribute('data-tokens', '200000');
    await expect(page.getByTestId('plan-verdict')).toBeVisible();
    await expect(page.getByTestId('tail-cut-steps')).toContainText('Budget walk');
    expect(errors).toEqual([]);
  });

  test('preset, context length and threshold redraw the map and persist', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    const count = await messageCount(page);
    await page.getByTestId('setting-preset').selectOption('hermes-2026-07');
    // 2026-07 raises the trigger to 75% under 512K windows: 150,000 tokens. That is the redraw's
    // sign: at a 200K window both generations can cut the demo at the same messages.
    await expect(page.getByTestId('map-marker-threshold')).toHaveAttribute('data-tokens', '150000');
    let after = await readRegions(page);
    expectValidRegions(after, count);

    await page.getByTestId('setting-context-length').fill('128000');
    await expect(page.getByTestId('map-marker-window')).toHaveAttribute('data-tokens', '128000');
    await expect(page.getByTestId('map-marker-threshold')).toHaveAttribute('data-tokens', '96000');
    after = await readRegions(page);
    expectValidRegions(after, count);

    // Back to 2026-04 (no floor), then a threshold in percent and one as a fraction.
    await page.getByTestId('setting-preset').selectOption('hermes-2026-04');
    await expect(page.getByTestId('map-marker-threshold')).toHaveAttribute('data-tokens', '64000');
    let before = await readRegions(page);
    await page.getByTestId('setting-threshold').fill('90');
    await expect(page.getByTestId('map-marker-threshold')).toHaveAttribute('data-tokens', '115200');
    after = await waitForRegionsToChange(page, before);
    expectValidRegions(after, count);
    await page.getByTestId('setting-threshold').fill('0.6');
    await expect(page.getByTestId('map-marker-threshold')).toHaveAttribute('data-tokens', '76800');
    await page.getByTestId('setting-threshold').fill('abc');
    await expect(page.getByText('"abc" is not a number.')).toBeVisible();
    await expect(page.getByTestId('map-marker-threshold')).toHaveAttribute('data-tokens', '76800');

    // protect_last_n and target ratio move the tail.
    before = await readRegions(page);
    await page.getByTestId('setting-target-ratio').fill('30');
    after = await waitForRegionsToChange(page, before);
    expectValidRegions(after, count);

    // The model picker fills the context length.
    await page.getByTestId('setting-model-picker').selectOption('gpt-5');
    await expect(page.getByTestId('setting-context-length')).toHaveValue('400000');
    await expect(page.getByTestId('map-marker-window')).toHaveAttribute('data-tokens', '400000');

    await page.reload();
    await expect(page.getByTestId('context-map').locator('[data-region="tail"]')).toBeAttached({
      timeout: 30_000,
    });
    await expect(page.getByTestId('setting-preset')).toHaveValue('hermes-2026-04');
    await expect(page.getByTestId('setting-context-length')).toHaveValue('400000');
    await expect(page.getByTestId('setting-threshold')).toHaveValue('60');
    await expect(page.getByTestId('map-marker-threshold')).toHaveAttribute('data-tokens', '240000');
    expect(errors).toEqual([]);
  });

  test('hovering shows details and clicking a region opens its message', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    const tail = page.getByTestId('context-map').locator('[data-region="tail"]');
    const box = (await tail.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await expect(page.getByTestId('map-tooltip')).toContainText('Protected tail');
    await expect(page.getByTestId('map-tooltip')).toContainText('of the transcript');
    await page.mouse.click(box.x + box.width - 2, box.y + box.height / 2);
    await expect(page.getByTestId('message-detail')).toBeVisible();
    const selectedIndex = Number(
      await page.locator('[data-testid="message-row"].selected').getAttribute('data-index'),
    );
    const regions = await readRegions(page);
    expect(selectedIndex).toBeGreaterThanOrEqual(regions[4]!.start);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('message-detail')).toHaveCount(0);

    // A pruned output shows its one-liner in the list and, expanded, in the detail. The list is
    // virtualised and scrolled to the tail: jump to the middle, where pruning happens, first.
    await page.getByTestId('context-map').locator('[data-region="middle"]').focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    const pruned = page.locator('[data-testid="message-row"][data-pruned="one-liner"]').first();
    await pruned.click();
    await expect(page.getByTestId('pruned-one-liner')).toContainText('[');
    expect(errors).toEqual([]);
  });

  test('keyboard shortcuts switch tabs, theme and open the help', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    await page.keyboard.press('2');
    await expect(page.getByTestId('tab-replay')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('3');
    await expect(page.getByTestId('tab-provider')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('1');
    await expect(page.getByTestId('tab-plan')).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('t');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await page.keyboard.press('t');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.keyboard.press('?');
    await expect(page.getByTestId('help-overlay')).toBeVisible();
    await expect(page.getByTestId('help-overlay')).toContainText('Run the replay');
    await expect(page.getByTestId('help-overlay')).toContainText(
      'Drag the bar between the transcript and the inspector',
    );
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('help-overlay')).not.toBeVisible();
    await page.keyboard.press('/');
    await expect(page.getByTestId('message-search')).toBeFocused();
    await page.keyboard.type('pytest');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('message-detail')).toContainText('pytest');
    // The theme survives a reload.
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    expect(errors).toEqual([]);
  });

  test('screenshots of the map and settings in light and dark, and on a 1280×720 laptop', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    await expect(page.getByTestId('exact-total')).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
    await page.getByTestId('theme-light').click();
    await page.screenshot({ path: test.info().outputPath('map-light.png') });
    await page.getByTestId('theme-dark').click();
    await page.screenshot({ path: test.info().outputPath('map-dark.png') });
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: test.info().outputPath('laptop-dark.png') });
    await page.getByTestId('theme-light').click();
    await page.screenshot({ path: test.info().outputPath('laptop-light.png') });
    // Everything important is reachable without horizontal scrolling.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(errors).toEqual([]);
  });
});
