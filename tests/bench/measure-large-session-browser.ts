import { join } from 'node:path';
import { LARGE_SESSION_MARKER, writeLargeSessionFile } from '../e2e/large-session-file.ts';
import { tourLargeSession } from '../e2e/large-session-tour.ts';
import { formatLongTasks, longTasksBetween, pageNow } from '../e2e/long-task-watch.ts';
import { hasTestId, openAppPage } from './bench-app-page.ts';
import type { BrowserSession } from './bench-browser.ts';
import type { BenchContext } from './bench-context.ts';
import { BENCH_TMP_DIR } from './bench-files.ts';
import type { BenchOutcome, BenchRow } from './bench-result.ts';
import { formatMs } from './bench-stats.ts';

const TARGET_TASK_MS = 50;
const IMPORT_TIMEOUT_MS = 300_000;
const FILE_NAME = 'bench-large-50k.jsonl';

/**
 * SPEC §7 (round 2): no main-thread task over 50 ms while a 50,000-message session is scrolled,
 * searched, planned, replayed or exported. The session of the end-to-end test (its texts cut
 * short: this is about the number of messages) is imported through the app and stored, then
 * toured step by step (`tests/e2e/large-session-tour.ts`), each step watched by a 'longtask'
 * PerformanceObserver. One run; a row per step, the value its longest main-thread task.
 */
export async function measureLargeSessionBrowser(
  context: BenchContext,
  session: BrowserSession,
): Promise<BenchOutcome> {
  context.log('writing the 50,000-message session (texts cut short)');
  const file = await writeLargeSessionFile(join(BENCH_TMP_DIR, FILE_NAME));
  const page = await openAppPage(session);
  try {
    if (!(await hasTestId(page, 'context-map'))) throw new Error('the app did not draw its context map');
    await page.locator('[data-testid="context-map"] [data-region="tail"]').waitFor({ timeout: 30_000 });
    // Rough counts, as the end-to-end test: exact counts of ~30M tokens would only add worker time.
    await page.getByTestId('setting-estimator').selectOption('rough');
    context.log(`importing ${(file.bytes / 2 ** 20).toFixed(0)} MiB, ${file.lines} records`);
    const importStarted = await pageNow(page);
    await page.getByTestId('import-file').setInputFiles(file.path);
    await page.waitForFunction(
      () => document.querySelector('[data-testid="import-status"]')?.getAttribute('data-status') === 'done',
      undefined,
      { timeout: IMPORT_TIMEOUT_MS, polling: 200 },
    );
    const imported = await longTasksBetween(page, importStarted, await pageNow(page));
    const count = Number((await page.getByTestId('message-count').textContent())?.replace(/[^0-9]/g, ''));
    context.log(`  stored, ${count} messages; ${formatLongTasks(imported)}; touring`);
    const tour = await tourLargeSession(page, { count, marker: LARGE_SESSION_MARKER, fileName: FILE_NAME });
    const rows: BenchRow[] = tour.steps.map((step) => ({
      name: `${count.toLocaleString('en-US')}-message session, ${step.name}: longest main-thread task (Chromium)`,
      size: count,
      value: step.longTasks.longestMs,
      unit: 'ms',
      target: `≤ ${TARGET_TASK_MS} ms`,
      met: step.longTasks.longestMs <= TARGET_TASK_MS,
      note: `1 run; the step took ${formatMs(step.elapsedMs)}; ${formatLongTasks(step.longTasks)}`,
    }));
    for (const row of rows) context.log(`  ${row.name}: ${formatMs(row.value)}`);
    return { rows, skips: [] };
  } finally {
    await page.close();
  }
}
