import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { importTranscript } from '#core/import/import-transcript.ts';
import { hasTestId, importThroughUi, openAppPage, waitForQuiet } from './bench-app-page.ts';
import type { BrowserSession } from './bench-browser.ts';
import type { BenchContext } from './bench-context.ts';
import { openAiJsonFile } from './bench-files.ts';
import type { BenchOutcome } from './bench-result.ts';
import { formatMs, median } from './bench-stats.ts';

const SIZE = 10_000;
const TARGET_MS = 100;
const IMPORT_TIMEOUT_MS = 120_000;
/** A change that never reaches the map within this long counts as "no redraw". */
const CHANGE_TIMEOUT_MS = 5_000;
/** Tried in order: the first setting whose change moves the map is measured. */
const SETTINGS = ['setting-threshold', 'setting-context-length'] as const;
/** The redraw is timed once the import's own work is over: no long task for this long. */
const QUIET_MS = 2_000;
const QUIET_TIMEOUT_MS = 60_000;

interface RedrawTiming {
  changed: boolean;
  /** From setting the value to the first change of the map's data-* attributes. */
  changedMs?: number;
  /** ... to the end of the next animation frame after it: drawn. */
  paintedMs?: number;
}

/** Values to alternate between: the select's options, or the input's value and a second one. */
async function candidateValues(page: Page, testId: string): Promise<string[]> {
  return page.evaluate((id) => {
    const element = document.querySelector(`[data-testid="${id}"]`);
    if (element instanceof HTMLSelectElement) return [...element.options].map((option) => option.value);
    if (!(element instanceof HTMLInputElement)) return [];
    const current = Number(element.value);
    if (!Number.isFinite(current) || current <= 0) return [];
    const clamp = (value: number): number => {
      const min = element.min === '' ? -Infinity : Number(element.min);
      const max = element.max === '' ? Infinity : Number(element.max);
      return Math.min(max, Math.max(min, value));
    };
    // A threshold (0.5 or 50) moves between 50% and 75%; a context length halves.
    const other =
      id === 'setting-threshold'
        ? clamp(current <= 1 ? (current === 0.75 ? 0.5 : 0.75) : current === 75 ? 50 : 75)
        : clamp(Math.round(current / 2));
    return [String(current), String(other)];
  }, testId);
}

/** Sets the value as a user would (input and change events) and times the map's redraw. */
function changeSetting(page: Page, testId: string, candidates: string[]): Promise<RedrawTiming> {
  return page.evaluate(
    ([id, values, timeoutMs]) =>
      new Promise<RedrawTiming>((resolve) => {
        const element = document.querySelector(`[data-testid="${id}"]`) as
          HTMLInputElement | HTMLSelectElement;
        const value = values.find((candidate) => candidate !== element.value) ?? values[0]!;
        const signature = (): string =>
          [...document.querySelectorAll('[data-testid="context-map"] [data-region]')]
            .map((region) =>
              ['region', 'start', 'end', 'tokens'].map((key) => region.getAttribute(`data-${key}`)).join(':'),
            )
            .join('|');
        const before = signature();
        let started = 0;
        let done = false;
        const observer = new MutationObserver(() => {
          if (done || signature() === before) return;
          done = true;
          const changedMs = performance.now() - started;
          observer.disconnect();
          requestAnimationFrame(() =>
            setTimeout(
              () => resolve({ changed: true, changedMs, paintedMs: performance.now() - started }),
              0,
            ),
          );
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true });
        setTimeout(() => {
          if (done) return;
          done = true;
          observer.disconnect();
          resolve({ changed: false });
        }, timeoutMs);
        const prototype =
          element instanceof HTMLSelectElement ? HTMLSelectElement.prototype : HTMLInputElement.prototype;
        started = performance.now();
        Object.getOwnPropertyDescriptor(prototype, 'value')!.set!.call(element, value);
        element.dispatchEvent(new Event('input', { bubbles: true }));
        element.dispatchEvent(new Event('change', { bubbles: true }));
      }),
    [testId, candidates, CHANGE_TIMEOUT_MS] as const,
  );
}

/**
 * A setting change on a 10,000-message transcript until the context map is redrawn (SPEC §7:
 * within 100 ms), through the app's UI: the transcript is imported with `import-file`, then
 * `setting-threshold` (or `setting-context-length`) changes until the regions' data-* change.
 */
export async function measureRedraw(context: BenchContext, session: BrowserSession): Promise<BenchOutcome> {
  const name = `redraw of the context map after a setting change (Chromium)`;
  const target = `< ${TARGET_MS} ms`;
  const page = await openAppPage(session);
  try {
    const missing = [];
    for (const testId of ['import-file', 'context-map', 'setting-threshold']) {
      if (!(await hasTestId(page, testId, missing.length === 0 ? undefined : 1_000))) missing.push(testId);
    }
    if (missing.length > 0) {
      const reason = `the app has no ${missing.join(', ')} yet (lab UI not landed)`;
      return { rows: [], skips: [{ name, size: SIZE, unit: 'ms', target, reason }] };
    }
    const file = openAiJsonFile(SIZE);
    const imported = importTranscript(readFileSync(file.path, 'utf8'));
    if (!imported.ok) throw new Error(`the generated transcript did not import: ${imported.error.message}`);
    context.log(`redraw: importing ${SIZE} messages into the app`);
    await importThroughUi(page, file.path, imported.value.transcript.messages.length, IMPORT_TIMEOUT_MS);
    const settledMs = await waitForQuiet(page, QUIET_MS, QUIET_TIMEOUT_MS);

    const runs = context.options.runsFor('light', SIZE);
    for (const testId of SETTINGS) {
      const candidates = await candidateValues(page, testId);
      if (candidates.length < 2) continue;
      context.log(`redraw: ${runs} changes of ${testId}`);
      const timings: RedrawTiming[] = [];
      for (let run = 0; run < runs; run++) {
        const timing = await changeSetting(page, testId, candidates);
        if (!timing.changed) break;
        timings.push(timing);
        // Let the app settle (saving the setting, say) before the next change.
        await page.waitForTimeout(300);
      }
      if (timings.length === 0) continue;
      const painted = timings.map((timing) => timing.paintedMs!);
      const value = median(painted);
      return {
        rows: [
          {
            name: `${name}, ${testId}`,
            size: SIZE,
            value,
            unit: 'ms',
            target,
            met: value < TARGET_MS,
            note:
              `median of ${timings.length} (${formatMs(Math.min(...painted))}–${formatMs(Math.max(...painted))}); ` +
              `map attributes changed after ${formatMs(median(timings.map((timing) => timing.changedMs!)))}, value = next frame drawn; values ${candidates.join(' ↔ ')}; ` +
              `timed after the import settled (${formatMs(settledMs)} until no long task for ${QUIET_MS / 1000} s)`,
          },
        ],
        skips: [],
      };
    }
    return {
      rows: [],
      skips: [
        {
          name,
          size: SIZE,
          unit: 'ms',
          target,
          reason: `no change of ${SETTINGS.join(' or ')} moved the map within ${CHANGE_TIMEOUT_MS / 1000} s`,
        },
      ],
    };
  } finally {
    await page.close();
  }
}
