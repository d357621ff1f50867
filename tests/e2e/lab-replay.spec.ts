import { expect, test, type Page } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';
import { messageCount, openLab } from './lab-helpers.ts';

async function resultFigures(page: Page) {
  const result = page.getByTestId('replay-result').last();
  const read = async (name: string) => Number(await result.getAttribute(name));
  return {
    messagesBefore: await read('data-messages-before'),
    messagesAfter: await read('data-messages-after'),
    tokensBefore: await read('data-tokens-before'),
    tokensAfter: await read('data-tokens-after'),
    compressionCount: await read('data-compression-count'),
  };
}

async function readSessions(
  page: Page,
): Promise<{ id: string; parentSessionId: string | null; endReason: string | null; title: string | null }[]> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const request = indexedDB.open('context-lab');
        request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
        request.onsuccess = () => {
          const read = request.result.transaction('sessions').objectStore('sessions').getAll();
          read.onsuccess = () => resolve(read.result);
          read.onerror = () => reject(read.error ?? new Error('IndexedDB request failed'));
        };
      }),
  );
}

test.describe('replay', () => {
  test('runs all four phases with the offline summariser, again on the result, and saves the chain', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    const count = await messageCount(page);
    await page.getByTestId('tab-replay').click();
    await page.getByTestId('replay-run').click();
    await expect(page.getByTestId('replay-result')).toBeVisible({ timeout: 30_000 });
    const first = await resultFigures(page);
    expect(first.messagesBefore).toBe(count);
    expect(first.messagesAfter).toBeLessThan(first.messagesBefore);
    expect(first.tokensAfter).toBeLessThan(first.tokensBefore);
    expect(first.compressionCount).toBe(1);
    await expect(page.getByTestId('replay-summarizer')).toHaveText('Offline summariser (no LLM)');
    await expect(page.getByTestId('replay-pruned-item').first()).toBeVisible();
    await expect(page.getByTestId('replay-phase-boundaries')).toContainText('Budget walk');
    await expect(page.getByTestId('replay-prompt')).toContainText('The exact summariser prompt');
    await page.getByTestId('replay-prompt').locator('summary').click();
    await expect(page.getByTestId('replay-prompt')).toContainText('TURNS TO SUMMARIZE');
    await expect(page.getByTestId('replay-summary')).toContainText('## Goal');
    await expect(page.getByTestId('replay-warning')).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('replay-light.png') });

    await page.getByTestId('replay-again').click();
    await expect(page.getByTestId('replay-result')).toHaveAttribute('data-compression-count', '2', {
      timeout: 30_000,
    });
    const second = await resultFigures(page);
    expect(second.messagesBefore).toBe(first.messagesAfter);
    // On a short result the middle may be little more than the old summary, which the update
    // can make longer: iterative re-compression does not always shrink.
    expect(second.tokensAfter).toBeGreaterThan(0);
    await expect(page.getByTestId('replay-previous-summary')).toBeVisible();
    await expect(page.getByTestId('replay-warning')).toBeVisible();
    await page.getByTestId('theme-dark').click();
    await page.screenshot({ path: test.info().outputPath('replay-dark.png') });

    await page.getByTestId('replay-save').click();
    // Each run of the chain is reviewed before it is stored (the summary editable, Commit to store).
    for (const run of [1, 2]) {
      await expect(page.getByTestId('compaction-review')).toBeVisible();
      await expect(page.getByTestId('summary-editor')).toHaveCount(1);
      // It opens under the buttons, below the fold of the side panel: it is brought into view,
      // and at the side panel's width its assessment goes under the editor, not beside it.
      await expect(page.getByTestId('summary-editor')).toBeInViewport();
      // Both boxes from one layout: the panel may still be scrolling smoothly.
      const stacked = await page.getByTestId('compaction-review').evaluate((review) => {
        const editor = review.querySelector('[data-testid="summary-editor"]')!.getBoundingClientRect();
        return review.querySelector('aside')!.getBoundingClientRect().top >= editor.bottom;
      });
      expect(stacked).toBe(true);
      await page.getByTestId('compaction-commit').click();
      if (run === 1) await expect(page.getByTestId('compaction-review')).toBeVisible();
    }
    await expect(page.getByTestId('replay-save-status')).toContainText('Saved as continuation session', {
      timeout: 15_000,
    });
    const sessions = await readSessions(page);
    const root = sessions.find(
      (session) => session.parentSessionId === null && session.endReason === 'compression',
    );
    expect(root).toBeDefined();
    const child = sessions.find((session) => session.parentSessionId === root!.id);
    expect(child?.endReason).toBe('compression');
    const grandchild = sessions.find((session) => session.parentSessionId === child!.id);
    expect(grandchild?.endReason).toBeNull();
    expect(grandchild?.title).toMatch(/#3$/);

    // The result can become the transcript on screen.
    await page.getByTestId('replay-open').click();
    await expect(page.getByTestId('message-count')).toHaveText(String(second.messagesAfter));
    expect(errors).toEqual([]);
  });

  test('steps through the phases one at a time', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    await page.keyboard.press('n');
    await expect(page.getByTestId('tab-replay')).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId('replay-phase-prune')).toBeVisible();
    await expect(page.getByTestId('replay-phase-boundaries')).toHaveCount(0);
    await page.keyboard.press('n');
    await expect(page.getByTestId('replay-phase-boundaries')).toBeVisible();
    await expect(page.getByTestId('replay-phase-summary')).toHaveCount(0);
    await page.keyboard.press('n');
    await expect(page.getByTestId('replay-summary')).toBeVisible();
    await expect(page.getByTestId('replay-result')).toHaveCount(0);
    await page.keyboard.press('n');
    await expect(page.getByTestId('replay-result')).toBeVisible();
    await page.keyboard.press('p');
    await expect(page.getByTestId('replay-result')).toHaveCount(0);
    await expect(page.getByTestId('replay-summary')).toBeVisible();
    expect(errors).toEqual([]);
  });

  test.describe('with a provider key', () => {
    // The mock provider runs as a webServer of the Playwright config; the test drives it over HTTP.
    const mockUrl = `http://127.0.0.1:${process.env.MOCK_PROVIDER_PORT ?? 8787}`;
    const control = async (path: string, body?: unknown): Promise<unknown> => {
      const response = await fetch(`${mockUrl}${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return response.json();
    };

    test('the provider writes the summary through the page, streamed', async ({ page }) => {
      const errors = collectConsoleErrors(page);
      await control('/__reset', {});
      const summary =
        '## Goal\nBuild the users API.\n\n## Completed Actions\n1. Wrote the app.\n\n## Critical Context\nSUMMARY FROM THE MOCK PROVIDER';
      await control('/__script', [{ kind: 'reply', text: summary }]);
      await openLab(page);
      await page.getByTestId('tab-provider').click();
      await page.getByTestId('setting-base-url').fill(mockUrl);
      await page.getByTestId('setting-base-url').press('Enter');
      await page.getByTestId('api-key').fill('sk-ant-test-0000-abcd');
      await page.getByTestId('api-key').press('Enter');
      await expect(page.getByTestId('api-key-hint')).toHaveText('sk-ant-…abcd');
      await page.getByTestId('tab-replay').click();
      await page.getByTestId('replay-run').click();
      await expect(page.getByTestId('replay-result')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId('replay-summarizer')).toContainText('Anthropic');
      await expect(page.getByTestId('replay-summary')).toContainText('SUMMARY FROM THE MOCK PROVIDER');
      const recorded = (await control('/__requests')) as { path: string; body: unknown }[];
      const calls = recorded.filter((request) => request.path === '/v1/messages');
      expect(calls).toHaveLength(1);
      const body = calls[0]!.body as { stream?: boolean; messages: { content: unknown }[] };
      expect(body.stream).toBe(true);
      expect(JSON.stringify(body.messages[0]!.content)).toContain('TURNS TO SUMMARIZE');
      expect(errors).toEqual([]);
    });
  });
});
