import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { once } from 'node:events';
import { expect, test, type Page } from '@playwright/test';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { claudeCodeJsonlLines } from '#core/demo/write-claude-code-jsonl.ts';
import type { Message } from '#core/transcript/message.ts';
import type { Transcript } from '#core/transcript/transcript.ts';
import { collectConsoleErrors } from './console-errors.ts';
import { expectValidRegions, readRegions } from './lab-helpers.ts';

/**
 * Issue 8 item 4: a 50,000-message session through the whole app in Chromium. What is checked
 * is that nothing crashes or stalls for good; the timings are printed, never asserted (SPEC §7
 * leaves performance to `npm run bench`).
 *
 * The generated session keeps its 50,000 messages, roles, tool calls and pairing, but every text
 * is cut to `MAX_TEXT_CHARACTERS`: at full size it is a 150 MiB file, whose import alone takes
 * minutes on a CI machine (bytes are the import benchmark's business; this test is about the
 * number of messages: the virtualised list, the per-message arrays, the map, search, replay).
 */
const MESSAGE_COUNT = 50_000;
const SEED = 50_050;
/** A word the generator never writes, put into one user message deep in the middle. */
const MARKER_WORD = 'quetzalcoatlmarker';
const FILE_NAME = 'large-50k.jsonl';
/** A sentence or two of each message; 50,000 of them (with the JSONL framing) come to about 40 MiB. */
const MAX_TEXT_CHARACTERS = 160;

const cut = (text: string): string =>
  text.length > MAX_TEXT_CHARACTERS ? text.slice(0, MAX_TEXT_CHARACTERS) : text;

/** Shortens the string values of a JSON argument object, keeping it valid JSON. */
function cutArguments(json: string): string {
  if (json.length <= MAX_TEXT_CHARACTERS) return json;
  const parsed = JSON.parse(json) as Record<string, unknown>;
  return JSON.stringify(
    Object.fromEntries(
      Object.entries(parsed).map(([key, value]) => [key, typeof value === 'string' ? cut(value) : value]),
    ),
  );
}

/** Every text of the transcript cut to `MAX_TEXT_CHARACTERS`; structure and ids untouched. */
function slim(transcript: Transcript): Transcript {
  const messages = transcript.messages.map((message): Message => {
    const content = message.content;
    return {
      ...message,
      ...(typeof content === 'string' ? { content: cut(content) } : {}),
      ...(Array.isArray(content)
        ? {
            content: content.map((part) =>
              typeof part.text === 'string' ? { ...part, text: cut(part.text) } : part,
            ),
          }
        : {}),
      ...(message.tool_calls
        ? {
            tool_calls: message.tool_calls.map((call) => ({
              ...call,
              function: { ...call.function, arguments: cutArguments(call.function.arguments) },
            })),
          }
        : {}),
    };
  });
  return { ...transcript, messages };
}

/** Puts the marker into a user prompt near the middle; returns the message index. */
function plantMarker(transcript: Transcript): number {
  const messages = transcript.messages;
  for (let index = Math.floor(messages.length / 2); index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'user' && typeof message.content === 'string') {
      messages[index] = { ...message, content: `${message.content} (${MARKER_WORD})` };
      return index;
    }
  }
  throw new Error('the generated transcript has no user prompt in its second half');
}

/** Writes the transcript as a Claude Code session file, line by line; returns the record and byte counts. */
async function writeClaudeCodeFile(
  transcript: Transcript,
  path: string,
): Promise<{ lines: number; bytes: number }> {
  const out = createWriteStream(path);
  let chunk = '';
  let lines = 0;
  for (const line of claudeCodeJsonlLines(transcript, {
    sessionId: 'large-session-e2e',
    startIso: '2027-01-15T08:00:00.000Z',
  })) {
    chunk += line + '\n';
    lines++;
    if (chunk.length > 4_000_000) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  return { lines, bytes: (await stat(path)).size };
}

/** Runs `step`, printing how long it took. */
async function timed<T>(label: string, timings: string[], step: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const value = await step();
  const line = `${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`;
  timings.push(line);
  console.log(line);
  return value;
}

/** The page still runs script: a crashed or hung renderer fails here. */
async function expectAlive(page: Page): Promise<void> {
  expect(await page.evaluate(() => 1)).toBe(1);
}

test.describe('a 50,000-message session', () => {
  test('imports, draws, scrolls, searches, replays and exports without a crash', async ({ page }) => {
    test.slow();
    const errors = collectConsoleErrors(page);
    let crashed = false;
    page.on('crash', () => (crashed = true));
    const timings: string[] = [];

    const path = test.info().outputPath(FILE_NAME);
    const { markerIndex, file } = await timed('generate and write the file (Node)', timings, async () => {
      const transcript = slim(generateAgentTranscript({ messageCount: MESSAGE_COUNT, seed: SEED }));
      const markerIndex = plantMarker(transcript);
      const file = await writeClaudeCodeFile(transcript, path);
      return { markerIndex, file };
    });
    console.log(
      `${FILE_NAME}: ${(file.bytes / 1024 / 1024).toFixed(0)} MiB, ${file.lines} records, marker in message ${markerIndex}`,
    );

    await page.goto('/');
    await expect(page.getByTestId('context-map').locator('[data-region="tail"]')).toBeAttached({
      timeout: 30_000,
    });
    // The rough estimator: exact counts of ~30M tokens would only add worker time to the test.
    await page.getByTestId('setting-estimator').selectOption('rough');

    await timed('import until the status reports it', timings, async () => {
      await page.getByTestId('import-file').setInputFiles(path);
      await expect(page.getByTestId('import-status')).toHaveAttribute('data-status', 'done', {
        timeout: 150_000,
      });
    });
    const status = (await page.getByTestId('import-status').textContent()) ?? '';
    console.log(`import status: ${status}`);
    expect(status).toMatch(/messages imported/);
    const count = Number((await page.getByTestId('message-count').textContent())?.replace(/[^0-9]/g, ''));
    // System prompts are not written to Claude Code files: everything else comes back.
    expect(count).toBeGreaterThanOrEqual(MESSAGE_COUNT - 1);

    await timed('context map drawn for the whole session', timings, async () => {
      await expect.poll(async () => (await readRegions(page))[4]?.end, { timeout: 60_000 }).toBe(count);
    });
    expectValidRegions(await readRegions(page), count);
    await timed('stored as a session', timings, async () => {
      await expect(page.locator('.import-status')).toContainText('stored as a session', { timeout: 150_000 });
    });
    await expectAlive(page);

    await timed('scroll the message list to the end', timings, async () => {
      await page.getByTestId('message-list').evaluate((list) => (list.scrollTop = list.scrollHeight));
      await expect(page.locator(`[data-testid="message-row"][data-index="${count - 1}"]`)).toBeVisible({
        timeout: 15_000,
      });
    });
    // Only the visible rows are in the DOM.
    expect(await page.getByTestId('message-row').count()).toBeLessThan(100);

    await timed('search the sessions for a word in the middle', timings, async () => {
      await page.getByTestId('tab-sessions').click();
      await page.getByTestId('sessions-search').fill(MARKER_WORD);
      await expect(page.getByTestId('search-hit').first()).toBeVisible({ timeout: 30_000 });
    });
    await expect(page.getByTestId('search-hit').first().locator('mark').first()).toHaveText(MARKER_WORD);
    await page.getByTestId('sessions-search').fill('');
    await expectAlive(page);

    await timed('replay with the offline summariser', timings, async () => {
      await page.getByTestId('tab-replay').click();
      await page.getByTestId('replay-run').click();
      await expect(page.getByTestId('replay-result')).toBeVisible({ timeout: 120_000 });
    });
    const result = page.getByTestId('replay-result').last();
    expect(Number(await result.getAttribute('data-messages-before'))).toBe(count);
    expect(Number(await result.getAttribute('data-messages-after'))).toBeLessThan(count);
    await expectAlive(page);

    const download = await timed('export the stored session (internal JSON)', timings, async () => {
      await page.getByTestId('tab-sessions').click();
      const entry = page.getByTestId('conversation').filter({ hasText: FILE_NAME });
      await entry.getByRole('button').first().click();
      await page.getByTestId('export-format').selectOption('internal-json');
      const downloading = page.waitForEvent('download', { timeout: 120_000 });
      await page.getByTestId('export-download').click();
      const download = await downloading;
      await download.path();
      return download;
    });
    const exported = await stat((await download.path())!);
    console.log(`export: ${download.suggestedFilename()}, ${(exported.size / 1024 / 1024).toFixed(0)} MiB`);
    expect(exported.size).toBeGreaterThan(file.bytes / 4);

    await expectAlive(page);
    expect(crashed).toBe(false);
    expect(errors).toEqual([]);
    console.log(`50,000-message session timings:\n  ${timings.join('\n  ')}`);
  });
});
