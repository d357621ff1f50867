import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';
import { openLab } from './lab-helpers.ts';

async function addEntry(page: Page, strategy: string): Promise<void> {
  await page.getByTestId('compare-add-strategy').selectOption(strategy);
  await page.getByTestId('compare-add').click();
}

async function rows(page: Page) {
  return page.getByTestId('compare-row').evaluateAll((elements) =>
    elements.map((element) => ({
      strategy: element.getAttribute('data-strategy'),
      tokensAfter: Number(element.getAttribute('data-tokens-after')),
      fidelity: Number(element.getAttribute('data-fidelity')),
      compactions: Number(element.getAttribute('data-compactions')),
    })),
  );
}

async function lanes(page: Page) {
  return page.getByTestId('compare-lane').evaluateAll((elements) =>
    elements.map((element) => ({
      strategy: element.getAttribute('data-strategy'),
      tokensAfter: Number(element.getAttribute('data-tokens-after')),
      kept: Number(element.getAttribute('data-kept-tokens')),
      summarized: Number(element.getAttribute('data-summarized-tokens')),
      stretchKinds: [...element.querySelectorAll('path[data-kind]')].map((path) =>
        path.getAttribute('data-kind'),
      ),
    })),
  );
}

test.describe('compare', () => {
  test('compares Codex CLI and Claude Code on the demo: table, lanes, losses, diff, chart and exports', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    await page.getByTestId('tab-compare').click();
    await expect(page.getByTestId('compare-empty')).toBeVisible();
    await expect(page.getByTestId('compare-run')).toBeDisabled();
    await addEntry(page, 'codex-cli');
    await addEntry(page, 'claude-code');
    await expect(page.getByTestId('compare-entry')).toHaveCount(2);
    await page.getByTestId('compare-run').click();
    await expect(page.getByTestId('compare-row')).toHaveCount(2, { timeout: 60_000 });

    const table = await rows(page);
    expect(table.map((row) => row.strategy)).toEqual(['codex-cli', 'claude-code']);
    // Codex keeps only the system prompt, the asks and a handoff; Claude Code re-attaches files too.
    expect(table[0]!.tokensAfter).not.toBe(table[1]!.tokensAfter);
    for (const row of table) {
      expect(row.tokensAfter).toBeGreaterThan(0);
      expect(row.fidelity).toBeGreaterThanOrEqual(0);
      expect(row.fidelity).toBeLessThanOrEqual(1);
      expect(Number.isInteger(row.compactions)).toBe(true);
    }
    const drawn = await lanes(page);
    expect(drawn.map((lane) => lane.strategy)).toEqual(['codex-cli', 'claude-code']);
    expect(drawn.map((lane) => lane.tokensAfter)).toEqual(table.map((row) => row.tokensAfter));
    // Both summarise, and both keep the system prompt at the head.
    for (const lane of drawn) expect(lane.stretchKinds).toEqual(expect.arrayContaining(['head', 'summary']));
    // The pointer over a lane names the stretch under it (the lanes draw one path per kind).
    // The diff and the chart mount a paint or two after the lanes and may move them (a scrollbar
    // appears), so the pointer is placed relative to the lane as it is when it moves there.
    const firstLane = page.getByTestId('compare-lane').first().locator('svg');
    const stretch = page.getByTestId('compare-lane-stretch');
    await expect(async () => {
      await firstLane.hover({ position: { x: 1, y: 4 } });
      await expect(stretch).toHaveAttribute('data-kind', 'head', { timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
    await expect(stretch).toContainText(/message #0, [\d,]+ tokens/);
    await page.getByTestId('compare-lane').first().locator('.name').hover();
    await expect(stretch).toHaveCount(0);
    // Codex keeps user messages from the middle, Claude Code summarises everything after the system prompt.
    expect(drawn[0]!.kept).toBeGreaterThan(drawn[1]!.kept);
    expect(drawn[0]!.summarized).not.toBe(drawn[1]!.summarized);

    // What Codex lost, by kind, each fact opening its message.
    await page.getByTestId('compare-row-open').first().click();
    const details = page.getByTestId('compare-details');
    await expect(details).toHaveAttribute('data-strategy', 'codex-cli');
    await expect(details.getByTestId('compare-summary')).toContainText('## Goal');
    const fact = details.getByTestId('lost-fact-open').first();
    await expect(fact).toBeVisible();
    await fact.click();
    await expect(page.getByTestId('message-detail')).toBeVisible();

    // The first two rows are diffed from the start.
    await expect(page.getByTestId('compare-diff')).toContainText('Codex CLI vs Claude Code');
    const onlyClaudeLost = Number(
      await page.getByTestId('compare-diff-first-count').getAttribute('data-count'),
    );
    const onlyCodexLost = Number(
      await page.getByTestId('compare-diff-second-count').getAttribute('data-count'),
    );
    expect(onlyClaudeLost + onlyCodexLost).toBeGreaterThan(0);

    // The simulation chart, read from the keyboard.
    const chart = page.getByTestId('compare-chart');
    await expect(chart.locator('canvas').first()).toBeAttached({ timeout: 30_000 });
    await chart.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('compare-chart-readout')).toContainText('Request 2');
    await expect(page.getByTestId('compare-points')).toContainText('Codex CLI');

    const markdownDownload = page.waitForEvent('download');
    await page.getByTestId('compare-export-markdown').click();
    const markdown = await markdownDownload;
    expect(markdown.suggestedFilename()).toMatch(/^compare-.*\.md$/);
    const markdownText = await readFile(await markdown.path(), 'utf8');
    expect(markdownText).toContain('# Strategy comparison');
    expect(markdownText).toContain('| Codex CLI |');

    const jsonDownload = page.waitForEvent('download');
    await page.getByTestId('compare-export-json').click();
    const json = await jsonDownload;
    expect(json.suggestedFilename()).toMatch(/^compare-.*\.json$/);
    const report = JSON.parse(await readFile(await json.path(), 'utf8')) as {
      contextLength: number;
      strategies: { name: string; tokensAfter: number }[];
    };
    expect(report.strategies.map((entry) => entry.name)).toEqual(['codex-cli', 'claude-code']);
    expect(report.strategies.map((entry) => entry.tokensAfter)).toEqual(table.map((row) => row.tokensAfter));

    await page.screenshot({ path: test.info().outputPath('compare.png'), fullPage: true });
    await page.getByTestId('compare-diff').scrollIntoViewIfNeeded();
    await page
      .getByTestId('inspector-panel')
      .screenshot({ path: test.info().outputPath('compare-diff.png') });
    await chart.scrollIntoViewIfNeeded();
    await page
      .getByTestId('inspector-panel')
      .screenshot({ path: test.info().outputPath('compare-chart.png') });
    expect(errors).toEqual([]);
  });

  test("starts from the lab's strategy in one click: the pair follows the Plan tab's choice", async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    await page.getByTestId('setting-preset').selectOption('codex-cli');
    await page.getByTestId('tab-compare').click();
    const start = page.getByTestId('compare-start-pair');
    await expect(start).toHaveText("Codex CLI (the lab's) and Hermes (2026-04)");
    await start.click();
    await expect(page.getByTestId('compare-entry')).toHaveCount(2);
    await expect(start).toHaveCount(0);
    await page.getByTestId('compare-run').click();
    await expect(page.getByTestId('compare-row')).toHaveCount(2, { timeout: 60_000 });
    expect((await rows(page)).map((row) => row.strategy)).toEqual(['codex-cli', 'hermes-2026-04']);
    expect(errors).toEqual([]);
  });

  test('cancels a running comparison and can run again', async ({ page }) => {
    await openLab(page);
    await page.getByTestId('tab-compare').click();
    for (const strategy of [
      'hermes-2026-04',
      'hermes-2026-07',
      'codex-cli',
      'claude-code',
      'opencode',
      'cline',
    ])
      await addEntry(page, strategy);
    await expect(page.getByTestId('compare-add')).toBeDisabled();
    await page.getByTestId('compare-run').click();
    await page.getByTestId('compare-cancel').click();
    await expect(page.getByText('Cancelled.')).toBeVisible();
    await page.getByTestId('compare-run').click();
    await expect(page.getByTestId('compare-row')).toHaveCount(6, { timeout: 60_000 });
  });
});
