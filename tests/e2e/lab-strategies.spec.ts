import { expect, test } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';
import { messageCount, openLab, readRegions, waitForRegionsToChange } from './lab-helpers.ts';

test.describe('strategies', () => {
  test('a history over the window: Codex trims its oldest messages, and the map and the verdict show them dropped', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    await page.getByTestId('setting-context-length').fill('16000');
    await page.getByTestId('setting-preset').selectOption('codex-cli');
    await expect(page.getByTestId('map-marker-window')).toHaveAttribute('data-tokens', '16000');
    // The demo (~100K tokens) does not fit a 16K window with Codex's compaction prompt.
    await expect(page.getByTestId('strategy-explanation')).toContainText(
      /so Codex trims the oldest \d+ messages \([\d,]+ tokens\) before it compacts/,
    );
    await expect(page.getByTestId('map-dropped-inside')).toBeVisible();
    await expect(page.getByTestId('map-legend-dropped')).toHaveText('dropped without a summary');
    await expect(
      page.getByText(/would be summarised and \d+ messages dropped without a summary/),
    ).toBeVisible();
    // A window that holds it drops nothing.
    await page.getByTestId('setting-context-length').fill('400000');
    await expect(page.getByTestId('map-marker-window')).toHaveAttribute('data-tokens', '400000');
    await expect(page.getByTestId('map-dropped-inside')).toHaveCount(0);
    await expect(page.getByTestId('strategy-explanation')).not.toContainText('trims the oldest');
    expect(errors).toEqual([]);
  });

  test('choosing codex-cli redraws the map and the explanation; its replay compacts, is assessed and saves', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    const count = await messageCount(page);
    await page.getByTestId('setting-context-length').fill('64000');
    await expect(page.getByTestId('map-marker-window')).toHaveAttribute('data-tokens', '64000');
    // Hermes 2026-04 at 64K: 50% of the window is 32,000, raised to its 64,000-token floor.
    await expect(page.getByTestId('map-marker-threshold')).toHaveAttribute('data-tokens', '64000');
    const hermesExplanation = await page.getByTestId('strategy-explanation').textContent();
    const before = await readRegions(page);

    await page.getByTestId('setting-preset').selectOption('codex-cli');
    // Codex compacts at model_auto_compact_token_limit: 90% of the raw window.
    await expect(page.getByTestId('map-marker-threshold')).toHaveAttribute('data-tokens', '57600');
    await expect(page.getByTestId('strategy-summary')).toContainText(/Codex/i);
    // Hermes' settings make way for Codex's own.
    await expect(page.getByTestId('setting-threshold')).toHaveCount(0);
    await expect(page.getByTestId('setting-option-codex-triggerPercent')).toHaveValue('90');
    const after = await waitForRegionsToChange(page, before);
    // Codex keeps no verbatim tail: everything after the system prompt is summarised.
    const tail = after.find((region) => region.region === 'tail')!;
    expect(tail.end - tail.start).toBeLessThan(
      before.find((region) => region.region === 'tail')!.end -
        before.find((region) => region.region === 'tail')!.start,
    );
    await expect(page.getByTestId('strategy-explanation')).not.toHaveText(hermesExplanation ?? '');

    await page.getByTestId('tab-replay').click();
    await page.getByTestId('replay-run').click();
    const result = page.getByTestId('replay-result');
    await expect(result).toBeVisible({ timeout: 30_000 });
    await expect(result).toHaveAttribute('data-strategy', 'codex-cli');
    expect(Number(await result.getAttribute('data-messages-before'))).toBe(count);
    expect(Number(await result.getAttribute('data-messages-after'))).toBeLessThan(count);
    expect(Number(await result.getAttribute('data-tokens-after'))).toBeLessThan(
      Number(await result.getAttribute('data-tokens-before')),
    );
    const score = Number(await page.getByTestId('fidelity-score').getAttribute('data-score'));
    expect(score).toBeGreaterThan(0);
    expect(score).toBeLessThan(1);
    await page.getByTestId('compaction-assessment').locator('summary').first().click();
    await expect(page.getByTestId('lost-fact').first()).toBeVisible();
    await expect(page.getByTestId('compaction-ledger')).toBeVisible();
    await expect(page.getByTestId('ledger-break-even')).toContainText(/turn \d+|never|unknown/);
    await page.screenshot({ path: test.info().outputPath('codex-replay.png'), fullPage: true });

    await page.getByTestId('replay-save').click();
    // The save stops at the review: the summary editable, the lost facts beside it, then Commit.
    await expect(page.getByTestId('compaction-review')).toBeVisible();
    await expect(page.getByTestId('summary-editor')).toBeVisible();
    await page.getByTestId('compaction-commit').click();
    await expect(page.getByTestId('replay-save-status')).toContainText('Saved', {
      timeout: 15_000,
    });
    expect(errors).toEqual([]);
  });
});
