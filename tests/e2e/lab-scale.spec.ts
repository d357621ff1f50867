import { writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { toOpenAiChatJson } from '#core/demo/write-openai-json.ts';
import { collectConsoleErrors } from './console-errors.ts';
import { expectValidRegions, openLab, readRegions } from './lab-helpers.ts';
import { formatLongTasks, longTasksBetween, pageNow, watchLongTasks } from './long-task-watch.ts';

const MESSAGE_COUNT = 10_000;

test.describe('scale', () => {
  test.setTimeout(240_000);

  test('a setting change on 10,000 messages redraws the map (measured)', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const path = test.info().outputPath('generated-10k.json');
    writeFileSync(path, toOpenAiChatJson(generateAgentTranscript({ messageCount: MESSAGE_COUNT, seed: 11 })));

    await watchLongTasks(page);
    await openLab(page);
    await page.getByTestId('setting-estimator').selectOption('rough');
    const importStarted = await pageNow(page);
    await page.getByTestId('import-file').setInputFiles(path);
    await expect(page.getByTestId('import-status')).toContainText('10,000 messages imported', {
      timeout: 120_000,
    });
    await expect.poll(async () => (await readRegions(page))[4]?.end, { timeout: 60_000 }).toBe(MESSAGE_COUNT);
    // The worker stores the session; wait for it so it does not share the measurement.
    await expect(page.getByTestId('import-status').locator('..')).toContainText('stored as a session', {
      timeout: 120_000,
    });
    console.log(
      `10,000-message import, until stored: ${formatLongTasks(await longTasksBetween(page, importStarted, await pageNow(page)))}`,
    );
    const changesStarted = await pageNow(page);
    expectValidRegions(await readRegions(page), MESSAGE_COUNT);

    /**
     * Changes one setting and times it: until the map's regions show the result (the DOM is
     * updated) and until the next animation frame after that (it is on screen).
     */
    const measure = (testid: string, value: string, kind: 'input' | 'change') =>
      page.evaluate(
        async ({ testid, value, kind }) => {
          const map = document.querySelector('[data-testid="context-map"]')!;
          const snapshot = () =>
            [...map.querySelectorAll('[data-region]')]
              .map(
                (element) =>
                  `${element.getAttribute('data-start')}:${element.getAttribute('data-end')}:${element.getAttribute('data-tokens')}`,
              )
              .join('|') + map.getAttribute('data-axis-tokens');
          const before = snapshot();
          const field = document.querySelector<HTMLInputElement | HTMLSelectElement>(
            `[data-testid="${testid}"]`,
          )!;
          const started = performance.now();
          field.value = value;
          field.dispatchEvent(new Event(kind, { bubbles: true }));
          await new Promise<void>((resolve, reject) => {
            const timeout = setTimeout(() => reject(new Error('the map did not change')), 20_000);
            const observer = new MutationObserver(() => {
              if (snapshot() === before) return;
              observer.disconnect();
              clearTimeout(timeout);
              resolve();
            });
            observer.observe(map, { attributes: true, subtree: true });
          });
          const updated = performance.now() - started;
          await new Promise((resolve) => requestAnimationFrame(resolve));
          return { updated, painted: performance.now() - started };
        },
        { testid, value, kind },
      );

    // The first plan of a preset builds its per-message caches; measure the cached redraws.
    const changes: [string, string, 'input' | 'change'][] = [
      ['setting-context-length', '400000', 'input'],
      ['setting-context-length', '1000000', 'input'],
      ['setting-threshold', '80', 'input'],
      ['setting-target-ratio', '40', 'input'],
      ['setting-protect-last-n', '40', 'input'],
      ['setting-context-length', '200000', 'input'],
      ['setting-threshold', '50', 'input'],
    ];
    const updated: number[] = [];
    const painted: number[] = [];
    for (const [testid, value, kind] of changes) {
      const timing = await measure(testid, value, kind);
      updated.push(timing.updated);
      painted.push(timing.painted);
      const planTiming = await page.getByTestId('plan-timing').textContent();
      console.log(
        `${testid} = ${value}: map updated ${timing.updated.toFixed(1)} ms, painted ${timing.painted.toFixed(1)} ms (${planTiming?.trim()})`,
      );
    }
    const firstPresetSwitch = await measure('setting-preset', 'hermes-2026-07', 'change');
    const cachedPresetSwitch = await measure('setting-preset', 'hermes-2026-04', 'change');
    const median = (values: number[]): number =>
      [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)]!;
    console.log(
      `10,000 messages: map updated median ${median(updated).toFixed(1)} ms (max ${Math.max(...updated).toFixed(1)}), ` +
        `painted median ${median(painted).toFixed(1)} ms (max ${Math.max(...painted).toFixed(1)}); ` +
        `first switch to the other preset ${firstPresetSwitch.updated.toFixed(0)} ms (builds its caches), back ${cachedPresetSwitch.updated.toFixed(1)} ms`,
    );
    console.log(
      `10,000 messages, setting changes: ${formatLongTasks(await longTasksBetween(page, changesStarted, await pageNow(page)))}`,
    );
    expectValidRegions(await readRegions(page), MESSAGE_COUNT);
    // Only visible rows are in the DOM.
    expect(await page.getByTestId('message-row').count()).toBeLessThan(80);
    await page.screenshot({ path: test.info().outputPath('scale-10k.png') });
    expect(errors).toEqual([]);
  });
});
