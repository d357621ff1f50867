import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { collectConsoleErrors } from './console-errors.ts';
import { openLab } from './lab-helpers.ts';

/** Issue 16, findings 5, 8 and 9: a short transcript fills the map, the detail reads, the category view adds up. */

const CLAUDE_CODE = resolve(import.meta.dirname, '../../../shared/corpus/transcripts/claude-code');

async function importFile(page: Page, path: string, messages: number): Promise<void> {
  await page.getByTestId('import-file').setInputFiles(path);
  await expect(page.getByTestId('import-status')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(page.getByTestId('message-count')).toHaveText(String(messages));
}

/** Left edges of the foreign compaction markers, in pixels from the track's start, and the track's width. */
async function foreignMarkerPositions(page: Page): Promise<{ lefts: number[]; width: number }> {
  const track = (await page.getByTestId('context-map').locator('.track').boundingBox())!;
  const boxes = await page
    .getByTestId('map-marker-foreign')
    .evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().left));
  return { lefts: boxes.map((left) => left - track.x), width: track.width };
}

/** Every category of the category view: its id and tokens. */
async function readCategories(page: Page): Promise<{ id: string; tokens: number }[]> {
  return page
    .getByTestId('category-view')
    .locator('[data-category]')
    .evaluateAll((elements) =>
      elements.map((element) => ({
        id: element.getAttribute('data-category') ?? '',
        tokens: Number(element.getAttribute('data-tokens')),
      })),
    );
}

test.describe('workspace view', () => {
  test('a short Claude Code session is zoomed to fit, its two compaction points apart on the map and marked in the list and legend', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    // The demo (about 100K of a 200K window) is drawn against the window.
    await expect(page.getByTestId('context-map')).toHaveAttribute('data-zoom', 'window');
    await expect(page.getByTestId('context-map')).toHaveAttribute('data-axis-tokens', '200000');

    // agent-sessions__small.jsonl: 10 messages, a few hundred tokens, two system/compact_boundary records.
    await importFile(page, resolve(CLAUDE_CODE, 'agent-sessions__small.jsonl'), 10);
    await expect(page.getByTestId('exact-total')).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
    const map = page.getByTestId('context-map');
    await expect(map).toHaveAttribute('data-token-basis', 'o200k_base');
    await expect(map).toHaveAttribute('data-zoom', 'fit');
    const total = await map.getAttribute('data-total-tokens');
    expect(Number(total)).toBeGreaterThan(0);
    expect(Number(total)).toBeLessThan(50_000);
    await expect(map).toHaveAttribute('data-axis-tokens', total!);
    // The window's markers are past the end of this scale, and say so.
    await expect(page.getByTestId('map-marker-threshold')).toHaveAttribute('data-off-scale', 'true');
    await expect(map.locator('.lane-label.threshold')).toContainText('trigger 100K →');

    // Both compaction points (before #0 and before #4) are visible apart: before the fix they were within a pixel.
    await expect(page.getByTestId('map-marker-foreign')).toHaveCount(2);
    await expect(page.getByTestId('map-marker-foreign').nth(0)).toHaveAttribute('data-index', '0');
    await expect(page.getByTestId('map-marker-foreign').nth(1)).toHaveAttribute('data-index', '4');
    const fitted = await foreignMarkerPositions(page);
    expect(fitted.lefts[1]! - fitted.lefts[0]!).toBeGreaterThan(fitted.width * 0.2);
    for (const left of fitted.lefts) {
      expect(left).toBeGreaterThanOrEqual(-1);
      expect(left).toBeLessThanOrEqual(fitted.width);
    }
    await expect(page.getByTestId('map-legend-foreign')).toHaveText('Claude Code compaction ×2');

    // The list marks the rows the points fall before.
    const marked = page.locator('[data-testid="message-row"]:has([data-testid="row-compaction"])');
    await expect(marked).toHaveCount(2);
    await expect(marked.nth(0)).toHaveAttribute('data-index', '0');
    await expect(marked.nth(1)).toHaveAttribute('data-index', '4');
    await expect(marked.nth(1).getByTestId('row-compaction')).toHaveText('Claude Code compaction');
    await expect(marked.nth(1).getByTestId('row-compaction')).toHaveAttribute(
      'title',
      /Claude Code compact boundary before #4/,
    );

    // The whole window, on request: the session shrinks to a sliver and the points nearly meet.
    await page.getByTestId('map-zoom-window').click();
    await expect(map).toHaveAttribute('data-zoom', 'window');
    await expect(map).toHaveAttribute('data-axis-tokens', '200000');
    await expect(page.getByTestId('map-marker-threshold')).toHaveAttribute('data-off-scale', 'false');
    const whole = await foreignMarkerPositions(page);
    expect(whole.lefts[1]! - whole.lefts[0]!).toBeLessThan(whole.width * 0.02);
    await page.getByTestId('map-zoom-fit').click();
    await expect(map).toHaveAttribute('data-zoom', 'fit');
    await page.screenshot({ path: test.info().outputPath('small-claude-code-fitted.png') });
    expect(errors).toEqual([]);
  });

  test('message detail lays JSON out for reading, raw one click away; find says "n of N" and highlights; hovering a row marks it on the map', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);

    // #22 and #46 are pytest runs: {"output": "=== test session starts ===\nplatform linux …"}.
    await page.getByTestId('message-search').fill('test session starts');
    await page.getByTestId('message-search').press('Enter');
    await expect(page.getByTestId('message-search-result')).toHaveText('1 of 2');
    await page.getByTestId('message-search').press('Enter');
    await expect(page.getByTestId('message-search-result')).toHaveText('2 of 2');
    await expect(page.locator('[data-testid="message-row"].selected')).toHaveAttribute('data-index', '46');
    const detail = page.getByTestId('message-detail');
    await expect(detail.getByTestId('detail-text')).toHaveAttribute('data-view', 'formatted');
    const formatted = (await detail.getByTestId('detail-text').textContent())!;
    expect(formatted.startsWith('{\n  "output": "=')).toBe(true);
    // The output's own line breaks are line breaks, not "\n".
    expect(formatted).toContain('\n    platform linux');
    expect(formatted).not.toContain('\\nplatform');
    await detail.getByTestId('detail-json-toggle').click();
    await expect(detail.getByTestId('detail-text')).toHaveAttribute('data-view', 'raw');
    const raw = (await detail.getByTestId('detail-text').textContent())!;
    expect(raw.startsWith('{"output": "=')).toBe(true);
    expect(raw).toContain('\\nplatform linux');

    // Find: "n of N", where N is every message that mentions the query (text, tool names, arguments).
    const query = 'pytest';
    const demo = buildDemoTranscript();
    const expected = demo.messages
      .map((message, index) => ({ message, index }))
      .filter(({ message }) =>
        JSON.stringify([message.content, message.tool_calls, message.name]).toLowerCase().includes(query),
      )
      .map(({ index }) => index);
    expect(expected.length).toBeGreaterThan(2);
    await page.keyboard.press('Escape');
    await page.getByTestId('message-search').fill(query);
    await page.getByTestId('message-search').press('Enter');
    await expect(page.getByTestId('message-search-result')).toHaveText(`1 of ${expected.length}`);
    await expect(page.locator('[data-testid="message-row"].selected')).toHaveAttribute(
      'data-index',
      String(expected[0]),
    );
    await page.getByTestId('message-search').press('Enter');
    await expect(page.getByTestId('message-search-result')).toHaveText(`2 of ${expected.length}`);
    await page.getByTestId('message-search').press('Shift+Enter');
    await expect(page.getByTestId('message-search-result')).toHaveText(`1 of ${expected.length}`);
    // Matching rows are marked, and the query is highlighted in the list and the detail.
    const firstRow = page.locator(`[data-testid="message-row"][data-index="${expected[0]}"]`);
    await expect(firstRow).toHaveAttribute('data-match', 'true');
    const highlighted = await page.getByTestId('message-detail').locator('mark').allTextContents();
    expect(highlighted.length).toBeGreaterThan(0);
    for (const text of highlighted) expect(text.toLowerCase()).toBe(query);
    // Editing the query forgets the count until the next search.
    await page.getByTestId('message-search').fill('pytes');
    await expect(page.getByTestId('message-search-result')).toHaveText('');
    await expect(page.locator('[data-testid="message-row"][data-match]')).toHaveCount(0);

    // Hovering a row highlights where that message sits on the map.
    await page.keyboard.press('Escape');
    await page.getByTestId('message-list').evaluate((list) => (list.scrollTop = 0));
    const row = page.locator('[data-testid="message-row"][data-index="4"]');
    await row.hover();
    const highlight = page.getByTestId('map-row-highlight');
    await expect(highlight).toHaveAttribute('data-index', '4');
    const middle = (await page.getByTestId('context-map').locator('[data-region="middle"]').boundingBox())!;
    const box = (await highlight.boundingBox())!;
    // Message 4 is the first of the middle region: the highlight starts where the middle starts.
    expect(Math.abs(box.x - middle.x)).toBeLessThanOrEqual(2);
    expect(box.width).toBeGreaterThan(2);
    await page.getByTestId('context-map').hover();
    await expect(highlight).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test('the category view splits the context like /context and adds up to the map total', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    await expect(page.getByTestId('exact-total')).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
    const view = page.getByTestId('category-view');
    await view.scrollIntoViewIfNeeded();
    const map = page.getByTestId('context-map');
    await expect(map).toHaveAttribute('data-token-basis', 'o200k_base');

    const check = async (minimumTools: number): Promise<void> => {
      const total = Number(await map.getAttribute('data-total-tokens'));
      const axis = await map.getAttribute('data-axis-tokens');
      await expect(view).toHaveAttribute('data-used-tokens', String(total));
      const categories = await readCategories(page);
      const ids = categories.map((category) => category.id);
      for (const id of ['system', 'tool-schemas', 'thinking', 'user', 'assistant', 'summaries', 'free-space'])
        expect(ids).toContain(id);
      // One category per tool whose results are in the transcript.
      expect(ids.filter((id) => id.startsWith('tool-results:')).length).toBeGreaterThanOrEqual(minimumTools);
      const inUse = categories.filter((category) => category.id !== 'free-space');
      expect(inUse.reduce((sum, category) => sum + category.tokens, 0)).toBe(total);
      const window = Number(await page.getByTestId('map-marker-window').getAttribute('data-tokens'));
      expect(categories.find((category) => category.id === 'free-space')!.tokens).toBe(
        Math.max(0, window - total),
      );
      expect(Number(axis)).toBeGreaterThanOrEqual(total);
      // Tool schemas are the map's tool-schema region.
      const tools = Number(await map.locator('[data-region="tools"]').getAttribute('data-tokens'));
      expect(categories.find((category) => category.id === 'tool-schemas')!.tokens).toBe(tools);
    };
    await check(3);
    await page.screenshot({ path: test.info().outputPath('category-view-exact.png') });

    // On the rough basis too.
    await page.getByTestId('setting-estimator').selectOption('rough');
    await expect(map).toHaveAttribute('data-token-basis', 'rough');
    await check(3);

    // A Claude Code session with a compact summary: the summary is its own category.
    await importFile(page, resolve(CLAUDE_CODE, 'agent-history__session_with_compaction.jsonl'), 13);
    await check(2);
    const summaryRow = page.locator(
      '[data-testid="message-row"][data-index="8"] [data-testid="rough-tokens"]',
    );
    const summaryTokens = Number((await summaryRow.textContent())!.replace(/,/g, ''));
    const categories = await readCategories(page);
    expect(categories.find((category) => category.id === 'summaries')!.tokens).toBe(summaryTokens);
    expect(categories.find((category) => category.id === 'tool-results:Edit')!.tokens).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });
});
