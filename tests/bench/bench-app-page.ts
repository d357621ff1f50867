import type { Page } from '@playwright/test';
import { watchLongTasks, type LongTask } from '../e2e/long-task-watch.ts';
import type { BrowserSession } from './bench-browser.ts';

export type { LongTask };

/** How long the app may take to show its first screen before a UI figure is given up. */
const APP_READY_TIMEOUT_MS = 30_000;

/** The built app in a fresh page, with every 'longtask' entry recorded from the first script on. */
export async function openAppPage(session: BrowserSession): Promise<Page> {
  const page = await session.newPage();
  await watchLongTasks(page);
  await page.goto(session.appUrl);
  await page.waitForLoadState('load');
  return page;
}

/**
 * Waits for the app's first screen: the demo's context map drawn, then no long task for
 * `quietMs`. A figure for one operation starts after it: an import begun 100 ms after the page's
 * load event once counted the app's own start-up (building and drawing the demo) as the import's.
 */
export async function waitForFirstScreen(page: Page, quietMs = 500): Promise<void> {
  await page
    .locator('[data-testid="context-map"] [data-region]')
    .first()
    .waitFor({ state: 'attached', timeout: APP_READY_TIMEOUT_MS });
  await waitForQuiet(page, quietMs, APP_READY_TIMEOUT_MS);
}

/** Whether the app shows an element with this data-testid within `timeoutMs`. */
export async function hasTestId(
  page: Page,
  testId: string,
  timeoutMs = APP_READY_TIMEOUT_MS,
): Promise<boolean> {
  try {
    await page
      .locator(`[data-testid="${testId}"]`)
      .first()
      .waitFor({ state: 'attached', timeout: timeoutMs });
    return true;
  } catch {
    return false;
  }
}

export interface ImportTiming {
  /** From handing the file to the input until it is both drawn and stored (page clock, ms). */
  elapsedMs: number;
  /** ... until the context map's regions end at the last message and import-status changed. */
  drawnMs: number;
  /** ... until IndexedDB holds a new session row and that many more message rows. */
  storedMs: number;
  startedMs: number;
  finishedMs: number;
  status: string;
}

/** How often the page checks the map while an import runs. */
const IMPORT_POLL_MS = 50;
/** How often IndexedDB is counted: each count is a transaction that queues behind the app's writes. */
const STORED_POLL_MS = 200;

/**
 * Gives `path` to the app's `import-file` input and waits until it is drawn (the context map's
 * regions end at `expectedMessages`, `import-status` shows a new, non-error text) and stored
 * (IndexedDB holds a new session row, and its `messages` store grew by `expectedMessages` rows).
 * Each wait gets `timeoutMs`; not drawn or not stored in time is an error.
 */
export async function importThroughUi(
  page: Page,
  path: string,
  expectedMessages: number,
  timeoutMs: number,
): Promise<ImportTiming> {
  // Counted straight from IndexedDB, so "stored" does not depend on how the app words its status.
  // Stored means committed: the session row exists (it is written last) and so do its messages.
  const stored = (): Promise<{ messages: number; sessions: number }> =>
    page.evaluate(async () => {
      const counts = { messages: 0, sessions: 0 };
      for (const { name } of await indexedDB.databases()) {
        if (!name) continue;
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const request = indexedDB.open(name);
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
        });
        try {
          const stores = (['messages', 'sessions'] as const).filter((store) =>
            db.objectStoreNames.contains(store),
          );
          if (stores.length < 2) continue;
          const transaction = db.transaction(stores);
          const done = <T>(request: IDBRequest<T>): Promise<T> =>
            new Promise<T>((resolve, reject) => {
              request.onsuccess = () => resolve(request.result);
              request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
            });
          counts.sessions += await done(transaction.objectStore('sessions').count());
          const messages = transaction.objectStore('messages');
          counts.messages += await done(messages.count());
          // A row may hold a group of messages (src/io/db/message-groups.ts): keyed by its last
          // id, its first id in this index. Read from keys alone, so polling reads no message.
          if (messages.indexNames.contains('[sessionId+firstId]')) {
            const cursor = messages.index('[sessionId+firstId]').openKeyCursor();
            await new Promise<void>((resolve, reject) => {
              cursor.onerror = () => reject(cursor.error ?? new Error('IndexedDB request failed'));
              cursor.onsuccess = () => {
                const at = cursor.result;
                if (at === null) return resolve();
                counts.messages += Number(at.primaryKey) - Number((at.key as [string, number])[1]);
                at.continue();
              };
            });
          }
        } finally {
          db.close();
        }
      }
      return counts;
    });
  const before = await stored();
  const statusBefore = (await page.locator('[data-testid="import-status"]').first().textContent()) ?? '';
  const startedMs = await page.evaluate(() => performance.now());
  await page.locator('[data-testid="import-file"]').first().setInputFiles(path);
  const drawn = await page.waitForFunction(
    ([expected, before]) => {
      const status = document.querySelector('[data-testid="import-status"]')?.textContent?.trim() ?? '';
      if (status !== before.trim() && /error|failed|could not|cannot/i.test(status)) return { error: status };
      let end = -1;
      for (const region of document.querySelectorAll('[data-testid="context-map"] [data-region]')) {
        end = Math.max(end, Number(region.getAttribute('data-end')));
      }
      return end === expected && status !== '' && status !== before.trim()
        ? { at: performance.now(), status }
        : false;
    },
    [expectedMessages, statusBefore] as const,
    { polling: IMPORT_POLL_MS, timeout: timeoutMs },
  );
  const outcome = (await drawn.jsonValue()) as { at: number; status: string } | { error: string };
  if ('error' in outcome) throw new Error(`the app reported: ${outcome.error}`);
  let storedAt = Number.NaN;
  const deadline = Date.now() + timeoutMs;
  while (Number.isNaN(storedAt)) {
    const now = await stored();
    if (now.messages >= before.messages + expectedMessages && now.sessions > before.sessions)
      storedAt = await page.evaluate(() => performance.now());
    else if (Date.now() > deadline)
      throw new Error(`the import was drawn but not stored within ${timeoutMs} ms`);
    else await page.waitForTimeout(STORED_POLL_MS);
  }
  const finishedMs = Math.max(outcome.at, storedAt);
  return {
    elapsedMs: finishedMs - startedMs,
    drawnMs: outcome.at - startedMs,
    storedMs: storedAt - startedMs,
    startedMs,
    finishedMs,
    status: outcome.status,
  };
}

/** Long tasks that started between two page-clock times. */
export async function longTasksBetween(page: Page, fromMs: number, toMs: number): Promise<LongTask[]> {
  const tasks = await page.evaluate(() => window.__longTasks ?? []);
  return tasks.filter((task) => task.startMs + task.durationMs >= fromMs && task.startMs <= toMs);
}

/**
 * Waits until the page has had no long task for `quietMs` (the app finished what an import
 * started: indexing, storing), or `timeoutMs` passed. Returns how long it waited.
 */
export async function waitForQuiet(page: Page, quietMs: number, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const quietFor = await page.evaluate(() => {
      const tasks = window.__longTasks ?? [];
      const lastEnd = tasks.reduce((latest, task) => Math.max(latest, task.startMs + task.durationMs), 0);
      return performance.now() - lastEnd;
    });
    if (quietFor >= quietMs) break;
    await page.waitForTimeout(Math.min(500, quietMs - quietFor + 50));
  }
  return Date.now() - started;
}
