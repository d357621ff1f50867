import type { Download, Page } from '@playwright/test';
import { longTasksBetween, pageNow, type LongTaskSummary } from './long-task-watch.ts';

/**
 * Everything a user does with a large session, step by step, each watched for main-thread long
 * tasks: scrolling the list, opening a message, finding in messages, a plan after a settings
 * change, searching the stored sessions, opening a hit, replaying, comparing and exporting. Shared by the
 * 50,000-message end-to-end test (which asserts what each step shows and prints the long tasks)
 * and the bench (which reports them against SPEC §7's 50 ms).
 */
export interface TourStep {
  name: string;
  elapsedMs: number;
  longTasks: LongTaskSummary;
}

export interface TourResult {
  steps: TourStep[];
  /** What `Find next` jumped to (`#N` in the search box's result). */
  foundIndex: number;
  /** The message count the list showed after the hit was opened. */
  reopenedCount: number;
  replay: { messagesBefore: number; messagesAfter: number };
  /** The comparison's rows: strategy, messages after, compactions in the simulation. */
  compared: { strategy: string; tokensAfter: number; compactions: number }[];
  download: Download;
}

/** How long each step may take before the tour gives up (a slow machine, not a stall). */
const STEP_TIMEOUT_MS = 120_000;
/** Work a step starts that finishes just after what it waits for still counts. */
const SETTLE_MS = 300;
/** Scroll positions visited on the way from the top of the list to its end. */
const SCROLL_STOPS = 12;
/** What the compare step puts side by side: Hermes' current generation and another tool's. */
const COMPARED_STRATEGIES = ['hermes-2026-07', 'codex-cli'] as const;

export async function tourLargeSession(
  page: Page,
  options: { count: number; marker: string; fileName: string; onStep?: (step: TourStep) => void },
): Promise<TourResult> {
  const steps: TourStep[] = [];
  const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const from = await pageNow(page);
    const value = await run();
    await page.waitForTimeout(SETTLE_MS);
    const to = await pageNow(page);
    const done = {
      name,
      elapsedMs: to - from - SETTLE_MS,
      longTasks: await longTasksBetween(page, from, to),
    };
    steps.push(done);
    options.onStep?.(done);
    return value;
  };
  const timeout = STEP_TIMEOUT_MS;
  const list = page.getByTestId('message-list');
  const rowWithRole = (index: number) =>
    page.locator(`[data-testid="message-row"][data-index="${index}"] .chip`);

  await step('scroll the message list to the end', async () => {
    for (let stop = 1; stop <= SCROLL_STOPS; stop++) {
      await list.evaluate(
        (element, at) => (element.scrollTop = (element.scrollHeight - element.clientHeight) * at),
        stop / SCROLL_STOPS,
      );
      // Rows arrive from the worker: every row drawn shows its role once its data is there.
      await page.waitForFunction(
        () => {
          const rows = [...document.querySelectorAll('[data-testid="message-row"]')];
          return rows.length > 0 && rows.every((row) => row.querySelector('.chip') !== null);
        },
        undefined,
        { timeout },
      );
    }
    await rowWithRole(options.count - 1).waitFor({ timeout });
  });

  await step('open a message', async () => {
    await page.locator(`[data-testid="message-row"][data-index="${options.count - 1}"]`).click();
    await page.getByTestId('message-detail').waitFor({ timeout });
  });

  const foundIndex = await step('find in messages', async () => {
    await page.getByTestId('message-search').fill(options.marker);
    await page.getByTestId('message-search').press('Enter');
    await page.waitForFunction(
      () => /^\d+ of \d+$/.test(document.querySelector('.search-result')?.textContent?.trim() ?? ''),
      undefined,
      { timeout },
    );
    await page.getByTestId('message-detail').filter({ hasText: options.marker }).waitFor({ timeout });
    // The detail is labelled with the found message's index ("Message 41,234").
    const label = await page.getByTestId('message-detail').getAttribute('aria-label');
    return Number(label!.replace(/[^0-9]/g, ''));
  });

  await step('change a setting: plan and redraw', async () => {
    const before = await mapSignature(page);
    const field = page.getByTestId('setting-threshold');
    const current = Number(await field.inputValue());
    await field.fill(String(current === 60 ? 70 : 60));
    await page.waitForFunction(
      (signature) => {
        const map = document.querySelector('[data-testid="context-map"]');
        const now = [...(map?.querySelectorAll('[data-region]') ?? [])]
          .map(
            (element) =>
              `${element.getAttribute('data-start')}:${element.getAttribute('data-end')}:${element.getAttribute('data-tokens')}`,
          )
          .join('|');
        return now !== signature;
      },
      before,
      { timeout },
    );
  });

  await step('search the stored sessions', async () => {
    await page.getByTestId('tab-sessions').click();
    await page.getByTestId('sessions-search').fill(options.marker);
    await page.getByTestId('search-hit').first().locator('mark').first().waitFor({ timeout });
  });

  // The detail still shows the marker from the find: closed, its reappearance means the hit opened.
  await page.getByRole('button', { name: 'Close the message detail' }).click();
  const reopenedCount = await step('open the search hit (the worker loads the session)', async () => {
    await page.getByTestId('search-hit').first().click();
    await page.getByTestId('message-detail').filter({ hasText: options.marker }).waitFor({ timeout });
    return Number((await page.getByTestId('message-count').textContent())?.replace(/[^0-9]/g, ''));
  });

  const replay = await step('replay with the offline summariser', async () => {
    await page.getByTestId('tab-replay').click();
    await page.getByTestId('replay-run').click();
    const result = page.getByTestId('replay-result').last();
    await result.waitFor({ timeout });
    return {
      messagesBefore: Number(await result.getAttribute('data-messages-before')),
      messagesAfter: Number(await result.getAttribute('data-messages-after')),
    };
  });

  const compared = await step('compare two strategies, the session simulated for each', async () => {
    await page.getByTestId('tab-compare').click();
    for (const strategy of COMPARED_STRATEGIES) {
      await page.getByTestId('compare-add-strategy').selectOption(strategy, { timeout });
      await page.getByTestId('compare-add').click();
    }
    await page.getByTestId('compare-run').click();
    await page
      .getByTestId('compare-row')
      .nth(COMPARED_STRATEGIES.length - 1)
      .waitFor({ timeout });
    return page.getByTestId('compare-row').evaluateAll((rows) =>
      rows.map((row) => ({
        strategy: row.getAttribute('data-strategy') ?? '',
        tokensAfter: Number(row.getAttribute('data-tokens-after')),
        compactions: Number(row.getAttribute('data-compactions')),
      })),
    );
  });

  const download = await step('export the stored session (internal JSON)', async () => {
    await page.getByTestId('tab-sessions').click();
    await page.getByTestId('sessions-search').fill('');
    // Opening the hit already selected its conversation; a click on it again would close it.
    if (!(await page.getByTestId('conversation-detail').isVisible())) {
      const entry = page.getByTestId('conversation').filter({ hasText: options.fileName });
      await entry.getByRole('button').first().click();
    }
    await page.getByTestId('export-format').selectOption('internal-json');
    const downloading = page.waitForEvent('download', { timeout });
    await page.getByTestId('export-download').click();
    const download = await downloading;
    await download.path();
    return download;
  });

  return { steps, foundIndex, reopenedCount, replay, compared, download };
}

/** The map's regions as one string, to tell when a redraw changed them. */
function mapSignature(page: Page): Promise<string> {
  return page.evaluate(() =>
    [...(document.querySelector('[data-testid="context-map"]')?.querySelectorAll('[data-region]') ?? [])]
      .map(
        (element) =>
          `${element.getAttribute('data-start')}:${element.getAttribute('data-end')}:${element.getAttribute('data-tokens')}`,
      )
      .join('|'),
  );
}
