import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';

/** A word only the early, summarised-away middle of the imported chat contains. */
const RARE_WORD = 'zanzibarquokka';

/**
 * An OpenAI Chat transcript long enough for a replay to compress: the rare word sits in an
 * early assistant turn that ends up in the summarised middle.
 */
function chatTranscript(): string {
  const messages: Array<{ role: string; content: string }> = [
    { role: 'system', content: 'You are a careful coding assistant.' },
  ];
  for (let turn = 0; turn < 24; turn++) {
    messages.push({
      role: 'user',
      content: `Step ${turn}: look at module_${turn}.py and tell me what it does.`,
    });
    const detail = turn === 3 ? `The ${RARE_WORD} helper caches tokens. ` : '';
    messages.push({
      role: 'assistant',
      content: `${detail}Module ${turn} parses the request, validates the payload and writes a row. `.repeat(
        40,
      ),
    });
  }
  messages.push({ role: 'user', content: 'Now summarise what we changed today.' });
  return JSON.stringify({ messages });
}

async function importText(page: Page, name: string, text: string): Promise<void> {
  await page
    .getByTestId('import-file')
    .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(page.getByTestId('import-status')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  // Stored once the status says so; a replay before that would store the transcript a second time.
  await expect(page.locator('.import-status')).toContainText('stored as a session', { timeout: 30_000 });
}

async function openSessionsTab(page: Page): Promise<void> {
  await page.getByTestId('tab-sessions').click();
  await expect(page.getByTestId('sessions-tab')).toBeVisible();
}

/** Imports the chat, replays compression on it and saves the result: a chain root → tip. */
async function storeChain(page: Page): Promise<void> {
  await importText(page, 'quokka-chat.json', chatTranscript());
  await page.getByTestId('tab-replay').click();
  await page.getByTestId('replay-run').click();
  await expect(page.getByTestId('replay-save')).toBeEnabled({ timeout: 30_000 });
  await page.getByTestId('replay-save').click();
  // Saving stops for review first: the summary in an editor; Commit stores it.
  await expect(page.getByTestId('summary-editor')).toBeVisible();
  await page.getByTestId('compaction-commit').click();
  await expect(page.getByTestId('replay-save-status')).toContainText('Saved as continuation session', {
    timeout: 30_000,
  });
}

const conversationTitled = (page: Page, title: string) =>
  page.getByTestId('conversation').filter({ has: page.getByText(title, { exact: false }) });

test.describe('sessions panel', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('message-count')).toBeVisible({ timeout: 30_000 });
  });

  test('an imported transcript appears in the list, live', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await openSessionsTab(page);
    await expect(page.getByTestId('sessions-empty')).toBeVisible();
    await importText(page, 'first-import.json', chatTranscript());
    const entry = conversationTitled(page, 'first-import.json');
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText('import');
    await expect(entry).toContainText('50 messages');
    expect(errors).toEqual([]);
  });

  test('a chain shows as one conversation with its lineage; search reaches the archived root', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await storeChain(page);
    await openSessionsTab(page);
    const entry = conversationTitled(page, 'quokka-chat.json');
    await expect(entry).toHaveAttribute('data-segments', '2');
    await expect(entry).toContainText('#1');
    await expect(entry).toContainText('#2');
    await entry.getByRole('button').first().click();

    const lineage = page.getByTestId('lineage-view');
    await expect(lineage.getByTestId('lineage-segment')).toHaveCount(2);
    await expect(lineage.getByTestId('lineage-compaction')).toHaveCount(1);
    const numbers = await lineage
      .getByTestId('lineage-segment')
      .evaluateAll((nodes) => nodes.map((node) => (node as HTMLElement).dataset.number));
    expect(numbers).toEqual(['1', '2']);
    await expect(lineage.getByTestId('lineage-segment').first()).toContainText('root');
    await expect(lineage.getByTestId('lineage-segment').last()).toContainText('tip');
    await expect(lineage.getByTestId('segment-summary').first()).toBeVisible();
    const rootId = await lineage.getByTestId('lineage-segment').first().getAttribute('data-session-id');

    // Open the root (an ended ancestor) in the workspace.
    await lineage.getByTestId('segment-open').first().click();
    await expect(page.getByTestId('message-count')).toHaveText('50');
    await expect(lineage.getByTestId('lineage-segment').first()).toContainText('on screen');
    await page.screenshot({ path: test.info().outputPath('sessions-lineage-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: test.info().outputPath('sessions-lineage-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });

    // The rare word was summarised away: only the ended root still holds the message.
    await page.getByTestId('sessions-search').fill(RARE_WORD);
    const hits = page.getByTestId('search-hit');
    await expect(hits.first()).toBeVisible();
    const rootHit = page.locator(`[data-testid="search-hit"][data-session-id="${rootId}"]`);
    await expect(rootHit).toHaveCount(1);
    await expect(rootHit.locator('mark').first()).toHaveText(RARE_WORD);
    await expect(rootHit.getByTestId('search-hit-place')).toHaveText('#1 of 2, compacted');
    await page.screenshot({ path: test.info().outputPath('sessions-search-light.png') });
    await rootHit.click();
    await expect(page.locator('[data-testid="message-row"].selected')).toContainText(RARE_WORD, {
      timeout: 10_000,
    });
    expect(errors).toEqual([]);
  });

  test('the workspace follows an undo and a redo of the compaction it shows, and a reload lands on it', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await storeChain(page);
    await page.getByTestId('replay-open').click();
    // The result replaces the 50 messages on screen once the worker has opened it.
    await expect(page.getByTestId('message-count')).not.toHaveText('50');
    const compacted = await page.getByTestId('message-count').textContent();
    expect(Number(compacted)).toBeLessThan(50);
    // A reload reopens the stored continuation on screen.
    await page.reload();
    await expect(page.getByTestId('session-title')).toContainText('quokka-chat.json #2', { timeout: 30_000 });
    await expect(page.getByTestId('message-count')).toHaveText(compacted!);

    await openSessionsTab(page);
    await conversationTitled(page, 'quokka-chat.json').getByRole('button').first().click();
    await page.getByTestId('compaction-undo').click();
    // Undone: the root is live again and the workspace shows it, not the undone branch.
    await expect(page.getByTestId('message-count')).toHaveText('50');
    await expect(page.getByTestId('session-title')).not.toContainText('#2');
    await page.reload();
    await expect(page.getByTestId('message-count')).toHaveText('50', { timeout: 30_000 });

    // The undone continuation stays in its conversation, off the chain, where Redo brings it back.
    await openSessionsTab(page);
    await expect(page.getByTestId('conversation')).toHaveCount(1);
    await expect(conversationTitled(page, 'quokka-chat.json')).toContainText('1 undone continuation');
    await conversationTitled(page, 'quokka-chat.json').getByRole('button').first().click();
    await page.getByTestId('compaction-redo').click();
    await expect(page.getByTestId('message-count')).toHaveText(compacted!);
    await expect(page.getByTestId('session-title')).toContainText('#2');
    expect(errors).toEqual([]);
  });

  test('export downloads a file that imports again, in every format', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await storeChain(page);
    await openSessionsTab(page);
    const entry = conversationTitled(page, 'quokka-chat.json');
    await entry.getByRole('button').first().click();

    const expectations = [
      { format: 'hermes-jsonl', suffix: '.hermes.jsonl' },
      { format: 'internal-json', suffix: '.context-lab.json' },
      { format: 'sharegpt', suffix: '.sharegpt.jsonl' },
      { format: 'markdown', suffix: '.md' },
    ];
    const texts = new Map<string, string>();
    for (const { format, suffix } of expectations) {
      await page.getByTestId('export-format').selectOption(format);
      const downloading = page.waitForEvent('download');
      await page.getByTestId('export-download').click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(
        new RegExp(`^quokka-chat-json-2-.*${suffix.replace(/\./g, '\\.')}$`),
      );
      texts.set(format, await readFile(await download.path(), 'utf8'));
    }
    const hermesLines = texts
      .get('hermes-jsonl')!
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(hermesLines).toHaveLength(2);
    expect(hermesLines[1]!.parent_session_id).toBe(hermesLines[0]!.id);
    expect(hermesLines[0]!.end_reason).toBe('compression');
    expect(texts.get('markdown')).toContain(RARE_WORD);

    // The Hermes export imports again, as the whole chain with its segments.
    await importText(page, 'reimported.hermes.jsonl', texts.get('hermes-jsonl')!);
    await expect(page.locator('.import-status')).toContainText('Hermes');
    await importText(page, 'reimported.context-lab.json', texts.get('internal-json')!);
    await expect(page.getByTestId('conversation')).toHaveCount(3);
    expect(errors).toEqual([]);
  });

  test('delete asks first and says what happens to the rest of the chain', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await storeChain(page);
    await importText(page, 'keep-me.json', chatTranscript());
    await openSessionsTab(page);
    const entry = conversationTitled(page, 'quokka-chat.json');
    await entry.getByRole('button').first().click();

    // One segment: the root; its continuation starts the conversation from then on.
    await page.getByTestId('segment-delete').first().click();
    const dialog = page.getByTestId('delete-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('segment #1');
    await expect(dialog).toContainText('#2 becomes the start of the conversation');
    await page.screenshot({ path: test.info().outputPath('sessions-delete-dialog-light.png') });
    await page.getByTestId('delete-cancel').click();
    await expect(dialog).toBeHidden();
    await expect(entry).toHaveAttribute('data-segments', '2');

    // The whole conversation.
    await page.getByTestId('conversation-delete').click();
    await expect(dialog).toContainText('all 2 sessions of the conversation');
    await page.getByTestId('delete-confirm').click();
    await expect(conversationTitled(page, 'quokka-chat.json')).toHaveCount(0);
    await expect(conversationTitled(page, 'keep-me.json')).toHaveCount(1);
    await expect(page.getByTestId('sessions-notice')).toContainText('Deleted 2 sessions');
    expect(errors).toEqual([]);
  });
});

test.describe('usage panel', () => {
  test('shows the empty state, then per-turn points and the compaction once usage exists', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await page.goto('/');
    await expect(page.getByTestId('message-count')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('tab-usage').click();
    await expect(page.getByTestId('usage-empty')).toContainText(
      'Usage appears here once you chat with a provider',
    );

    await storeChain(page);
    // The chat records usage as it talks to a provider; here the rows are written the same way,
    // straight into IndexedDB, and the page reloaded to read them.
    await page.evaluate(seedUsage);
    await page.reload();
    await expect(page.getByTestId('message-count')).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('tab-usage').click();
    const chart = page.getByTestId('usage-chart');
    await expect(chart).toBeVisible();
    await expect(chart.getByTestId('usage-point')).toHaveCount(4);
    await expect(chart.getByTestId('compaction-marker')).toHaveCount(1);
    await expect(chart.getByTestId('compaction-marker')).toHaveAttribute('data-after-turn', '2');
    await expect(page.getByTestId('usage-total-cost')).not.toHaveText('n/a');
    await expect(page.getByTestId('usage-segments').locator('tbody tr')).toHaveCount(2);

    await chart.locator('svg').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(page.getByTestId('usage-readout')).toContainText('Turn 2');
    await page.screenshot({ path: test.info().outputPath('usage-light.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: test.info().outputPath('usage-dark.png') });
    expect(errors).toEqual([]);
  });
});

/**
 * Runs in the page: two chat turns on each of the three sessions of the stored chain (oldest
 * first), with a summary request before each rotation, priced as Sonnet 4 on Anthropic.
 */
async function seedUsage(): Promise<void> {
  const database = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('context-lab');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });
  const done = (transaction: IDBTransaction) =>
    new Promise<void>((resolve, reject) => {
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
    });
  const read = database.transaction('sessions').objectStore('sessions').getAll();
  const sessions = await new Promise<Array<Record<string, unknown>>>((resolve) => {
    read.onsuccess = () => resolve(read.result as Array<Record<string, unknown>>);
  });
  const chain = sessions
    .filter((session) => typeof session.title === 'string' && session.title.startsWith('quokka-chat.json'))
    .sort((first, second) => Number(first.startedAt) - Number(second.startedAt));
  const transaction = database.transaction(['sessions', 'usageEvents'], 'readwrite');
  const events = transaction.objectStore('usageEvents');
  let createdAt = Date.now();
  chain.forEach((session, index) => {
    const turns = [
      { inputTokens: 1200, cacheReadTokens: index * 2000, cacheWriteTokens: 6000, outputTokens: 300 },
      { inputTokens: 300, cacheReadTokens: 7000 + index * 500, cacheWriteTokens: 400, outputTokens: 250 },
    ];
    for (const turn of turns) {
      events.add({
        sessionId: session.id,
        createdAt: createdAt++,
        model: 'claude-sonnet-4-20250514',
        reasoningTokens: 0,
        requestCount: 1,
        costUsd: 0,
        compaction: false,
        ...turn,
      });
    }
    if (index < chain.length - 1) {
      events.add({
        sessionId: session.id,
        createdAt: createdAt++,
        model: 'claude-sonnet-4-20250514',
        inputTokens: 9000,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
        outputTokens: 900,
        reasoningTokens: 0,
        requestCount: 1,
        costUsd: 0,
        compaction: true,
      });
    }
    transaction
      .objectStore('sessions')
      .put({ ...session, provider: 'anthropic', apiCallCount: index < chain.length - 1 ? 3 : 2 });
  });
  await done(transaction);
  database.close();
}
