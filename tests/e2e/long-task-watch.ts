import type { Page } from '@playwright/test';

/** A main-thread task the Long Tasks API reported (it reports only tasks over 50 ms). */
export interface LongTask {
  startMs: number;
  durationMs: number;
}

declare global {
  interface Window {
    __longTasks?: LongTask[];
  }
}

/**
 * Records every 'longtask' entry of the page from its first script on (call before `goto`). SPEC
 * §7: no main-thread task over 50 ms; tests print what this saw, the bench reports it.
 */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const tasks: LongTask[] = [];
    window.__longTasks = tasks;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        tasks.push({ startMs: entry.startTime, durationMs: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** The page's clock (`performance.now()`), the time base of the long tasks. */
export const pageNow = (page: Page): Promise<number> => page.evaluate(() => performance.now());

/** What the page's long tasks came to between two page-clock times. */
export interface LongTaskSummary {
  count: number;
  longestMs: number;
  totalMs: number;
}

export async function longTasksBetween(page: Page, fromMs: number, toMs: number): Promise<LongTaskSummary> {
  const tasks = (await page.evaluate(() => window.__longTasks ?? [])).filter(
    (task) => task.startMs + task.durationMs >= fromMs && task.startMs <= toMs,
  );
  return {
    count: tasks.length,
    longestMs: tasks.reduce((longest, task) => Math.max(longest, task.durationMs), 0),
    totalMs: tasks.reduce((sum, task) => sum + task.durationMs, 0),
  };
}

export const formatLongTasks = (summary: LongTaskSummary): string =>
  summary.count === 0
    ? 'no main-thread task over 50 ms'
    : `${summary.count} main-thread tasks over 50 ms, longest ${summary.longestMs.toFixed(0)} ms, ${summary.totalMs.toFixed(0)} ms in total`;
