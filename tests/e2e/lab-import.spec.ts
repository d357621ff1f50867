import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { TRANSCRIPT_FORMATS } from '#core/import/formats/transcript-format-registry.ts';
import { collectConsoleErrors } from './console-errors.ts';
import { expectValidRegions, messageCount, openLab, readRegions } from './lab-helpers.ts';

const fixtures = resolve(import.meta.dirname, '../fixtures/import');

interface Expected {
  stats: { messages: number };
  compactionPoints: unknown[];
}

/** One well-formed sample of every importable format. */
const SAMPLES = [
  'openai-chat/parallel-tool-calls/input.json',
  'anthropic-messages/request-thinking-tools/input.json',
  'hermes-session-jsonl/single-session-rows/input.jsonl',
  'hermes-snapshot/tools-and-reasoning/input.json',
  'sharegpt/hermes-parallel-tools/input.jsonl',
  'claude-code/compaction-sidechain/input.jsonl',
  'codex-rollout/parallel-calls-reasoning/input.jsonl',
  'internal/full-metadata/input.json',
  'openai-responses/chained-with-compaction/input.json',
  'cline/native-tool-use/input.json',
  'gemini-cli/jsonl-session-rewind/input.jsonl',
  'aider/edit-commit-run/input.md',
  'swe-agent/function-calling-history/input.traj',
  'openhands/parallel-calls-condensation/input.json',
] as const;

function expectedFor(sample: string): Expected {
  return JSON.parse(readFileSync(resolve(fixtures, sample, '../expected.json'), 'utf8')) as Expected;
}

async function importFile(page: Page, path: string): Promise<void> {
  await page.getByTestId('import-file').setInputFiles(path);
  await expect(page.getByTestId('import-status')).not.toHaveAttribute('data-status', 'reading', {
    timeout: 30_000,
  });
}

test.describe('import', () => {
  test('imports a file of every format through the file input', async ({ page }) => {
    expect(new Set(SAMPLES.map((sample) => sample.split('/')[0]))).toEqual(new Set(TRANSCRIPT_FORMATS));
    const errors = collectConsoleErrors(page);
    await openLab(page);
    for (const sample of SAMPLES) {
      const expected = expectedFor(sample);
      await importFile(page, resolve(fixtures, sample));
      await expect(page.getByTestId('import-status'), sample).toHaveAttribute('data-status', 'done');
      const count = expected.stats.messages;
      await expect(page.getByTestId('import-status'), sample).toContainText(
        `${count} ${count === 1 ? 'message' : 'messages'} imported`,
      );
      await expect(page.getByTestId('message-count')).toHaveText(String(count));
      await expect.poll(async () => (await readRegions(page))[4]?.end, { message: sample }).toBe(count);
      expectValidRegions(await readRegions(page), count);
      await expect(page.getByTestId('map-marker-foreign')).toHaveCount(expected.compactionPoints.length);
    }
    expect(errors).toEqual([]);
  });

  test('reports skipped lines of a partly broken file', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    await importFile(page, resolve(fixtures, 'hermes-session-jsonl/broken-lines/input.jsonl'));
    await expect(page.getByTestId('import-status')).toHaveText(
      /^4 messages imported, 2 lines skipped: line 2 is not JSON/,
    );
    expect(errors).toEqual([]);
  });

  test('a broken file shows an error naming the line and keeps the previous transcript', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    // Wait for the exact counts, so nothing redraws on its own during the test.
    await expect(page.getByTestId('context-map')).toHaveAttribute('data-token-basis', 'o200k_base', {
      timeout: 30_000,
    });
    const title = await page.getByTestId('session-title').textContent();
    const count = await messageCount(page);
    const regions = await readRegions(page);
    await importFile(page, resolve(import.meta.dirname, '../fixtures/e2e/broken-openai-chat/input.json'));
    await expect(page.getByTestId('import-status')).toHaveAttribute('data-status', 'error');
    await expect(page.getByTestId('import-status')).toContainText('line 6 is not valid JSON');
    await expect(page.getByTestId('session-title')).toHaveText(title ?? '');
    expect(await messageCount(page)).toBe(count);
    expect(await readRegions(page)).toEqual(regions);
    // A file in no known format names what was expected.
    await importFile(page, resolve(fixtures, 'internal/broken-version/input.json'));
    await expect(page.getByTestId('import-status')).toContainText('$.version is 2, not 1');
    expect(await messageCount(page)).toBe(count);
    expect(errors).toEqual([]);
  });

  test('imports pasted text, honours the format override, and accepts a dropped file', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    const chat = {
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'One' },
        { role: 'assistant', content: 'Two' },
      ],
    };
    await page.keyboard.press('v');
    await page.getByTestId('paste-text').fill(JSON.stringify(chat));
    await page.getByTestId('paste-import').click();
    await expect(page.getByTestId('import-status')).toHaveText('3 messages imported');
    await expect(page.getByTestId('paste-dialog')).not.toBeVisible();
    await expect(page.getByTestId('session-title')).toHaveText('Pasted transcript');

    // Forcing a format that does not fit is an error, and nothing changes.
    await page.getByTestId('import-format').selectOption('claude-code');
    await page.getByTestId('import-paste').click();
    await page.getByTestId('paste-text').fill(JSON.stringify(chat));
    await page.getByTestId('paste-import').click();
    await expect(page.getByTestId('import-status')).toHaveAttribute('data-status', 'error');
    await expect(page.getByTestId('import-status')).toContainText('Claude Code JSONL');
    // The dialog says why its own text failed, forgets it once the text is edited, and does not
    // greet the next paste with it.
    await expect(page.getByTestId('paste-error')).toContainText('Claude Code JSONL');
    await page.getByTestId('paste-text').fill('{"messages": oops}');
    await expect(page.getByTestId('paste-error')).toHaveCount(0);
    await page.keyboard.press('Escape');
    expect(await messageCount(page)).toBe(3);
    await page.getByTestId('import-format').selectOption('auto');
    await page.getByTestId('import-paste').click();
    await expect(page.getByTestId('paste-error')).toHaveCount(0);
    await page.getByTestId('paste-import').click();
    await expect(page.getByTestId('paste-error')).toHaveText(
      'Transcript import: line 1 is not valid JSON at column 14 (expected one JSON document, or one JSON object per line)',
    );
    await page.keyboard.press('Escape');

    // Drag and drop onto the workspace.
    const text = readFileSync(
      resolve(fixtures, 'codex-rollout/parallel-calls-reasoning/input.jsonl'),
      'utf8',
    );
    await page.evaluate((content) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([content], 'rollout.jsonl', { type: 'application/json' }));
      const target = document.querySelector('.workspace')!;
      target.dispatchEvent(
        new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }),
      );
      target.dispatchEvent(
        new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }),
      );
    }, text);
    await expect(page.getByTestId('import-status')).toContainText('8 messages imported');
    await expect(page.getByTestId('session-title')).toContainText('rollout.jsonl');
    expect(errors).toEqual([]);
  });

  test('an imported transcript is stored as a session', async ({ page }) => {
    await openLab(page);
    await importFile(page, resolve(fixtures, 'claude-code/compaction-sidechain/input.jsonl'));
    await expect(page.getByTestId('import-status')).toHaveAttribute('data-status', 'done');
    await expect
      .poll(async () => page.getByTestId('import-status').locator('..').textContent())
      .toContain('stored as a session');
    const stored = await page.evaluate(
      () =>
        new Promise<unknown[]>((resolvePromise, reject) => {
          const request = indexedDB.open('context-lab');
          request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
          request.onsuccess = () => {
            const read = request.result.transaction('sessions').objectStore('sessions').getAll();
            read.onsuccess = () => resolvePromise(read.result as unknown[]);
            read.onerror = () => reject(read.error ?? new Error('IndexedDB request failed'));
          };
        }),
    );
    expect(stored.some((row) => (row as { source?: string }).source === 'import')).toBe(true);
  });
});
