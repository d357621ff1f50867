import { expect, test, type Page } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';
import { connectChatToMock, mock, openChat, sendChat } from './chat-helpers.ts';
import { openLab } from './lab-helpers.ts';

test.describe.configure({ mode: 'serial' });

test.beforeEach(async ({ request }) => {
  await mock.reset(request);
});

/** Rewrites every stored tool call id and result id to `id`: a session stored before ids were made unique. */
async function storeDuplicateIds(page: Page, id: string): Promise<number> {
  return page.evaluate(
    (duplicate) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('context-lab');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const transaction = db.transaction('messages', 'readwrite');
          let changed = 0;
          transaction.objectStore('messages').openCursor().onsuccess = (event) => {
            const cursor = (event.target as IDBRequest<IDBCursorWithValue | null>).result;
            if (!cursor) return;
            const row = cursor.value as { message: Record<string, unknown> };
            const calls = row.message.tool_calls as Array<{ id: string }> | undefined;
            if (Array.isArray(calls)) for (const call of calls) call.id = duplicate;
            if (typeof row.message.tool_call_id === 'string') row.message.tool_call_id = duplicate;
            if (Array.isArray(calls) || typeof row.message.tool_call_id === 'string') {
              changed += 1;
              cursor.update(row);
            }
            cursor.continue();
          };
          transaction.oncomplete = () => {
            db.close();
            resolve(changed);
          };
          transaction.onerror = () => reject(transaction.error);
        };
      }),
    id,
  );
}

test('a provider that repeats tool call ids, and a session stored with repeated ids, both render', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  await connectChatToMock(page);
  await mock.script(request, [
    {
      kind: 'reply',
      toolCalls: [
        { name: 'search_sessions', arguments: { query: 'alpha' }, id: 'dup' },
        { name: 'search_sessions', arguments: { query: 'beta' }, id: 'dup' },
      ],
    },
    { kind: 'reply', text: 'Searched twice.' },
  ]);
  await sendChat(page, 'Search for alpha, then for beta.');
  const calls = page.getByTestId('chat-tool-call');
  await expect(calls).toHaveCount(2);
  for (const call of await calls.all()) await call.locator('summary').click();
  const results = page.getByTestId('chat-tool-result');
  await expect(results).toHaveCount(2);
  await expect(results.nth(0)).toContainText('alpha');
  await expect(results.nth(1)).toContainText('beta');
  await expect(page.getByTestId('chat-message').last()).toContainText('Searched twice.');

  // The two calls (one row) and their two results now all say "dup", as sessions stored before the fix may.
  expect(await storeDuplicateIds(page, 'dup')).toBe(3);
  await page.reload();
  await openChat(page);
  await expect(page.getByTestId('chat-tool-call')).toHaveCount(2);
  for (const call of await page.getByTestId('chat-tool-call').all()) await call.locator('summary').click();
  await expect(page.getByTestId('chat-tool-result').nth(0)).toContainText('alpha');
  await expect(page.getByTestId('chat-tool-result').nth(1)).toContainText('beta');
  // The conversation goes on from there.
  await sendChat(page, 'Thanks.');
  await expect(page.getByTestId('chat-message').last()).toContainText('Mock reply to: Thanks.');
  expect(errors).toEqual([]);
});

/** Left edge, on screen, of where `word` starts inside `selector`'s text (first match). */
async function wordX(page: Page, selector: string, word: string): Promise<number> {
  return page.evaluate(
    ([css, needle]) => {
      const root = document.querySelector(css!);
      if (!root) throw new Error(`no ${css}`);
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent!.indexOf(needle!);
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        return range.getBoundingClientRect().x;
      }
      throw new Error(`no "${needle}" in ${css}`);
    },
    [selector, word] as const,
  );
}

test('a file name with a right-to-left override reverses neither the status line nor the title', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  await openLab(page);
  const transcript = {
    messages: [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi' },
    ],
  };
  await page.getByTestId('import-file').setInputFiles({
    name: 'invoice\u202Efdp.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(transcript)),
  });
  await expect(page.locator('.import-status')).toContainText('stored as a session', { timeout: 30_000 });
  // The override is gone from the title, here and in the session list.
  await expect(page.getByTestId('session-title')).toHaveText('invoicefdp.json');
  // The app's own words after the name keep their order: with the override leaking, the rest of
  // the line would be laid out right to left ("stored" left of "OpenAI").
  const detail = '.import-status .muted';
  expect(await wordX(page, detail, 'OpenAI')).toBeLessThan(await wordX(page, detail, 'stored'));
  expect(await wordX(page, detail, 'invoice')).toBeLessThan(await wordX(page, detail, 'OpenAI'));
  await page.getByTestId('tab-sessions').click();
  await expect(page.getByText('invoicefdp.json').first()).toBeVisible();
  expect(errors).toEqual([]);
});

test('replay phase-1 rows keep their height when a tool name would wrap', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  await openLab(page);
  const tool = 'mcp-github-create-pull-request-review-comment-reply-in-thread-with-suggestions';
  const output = 'Line of tool output that will be pruned into a one-liner later on. '.repeat(40);
  const messages: unknown[] = [{ role: 'system', content: 'You are a coding agent.' }];
  for (let turn = 0; turn < 24; turn++) {
    messages.push({ role: 'user', content: `Step ${turn}: please continue with the review.` });
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: `call_${turn}`, type: 'function', function: { name: tool, arguments: `{"n": ${turn}}` } },
      ],
    });
    messages.push({ role: 'tool', tool_call_id: `call_${turn}`, name: tool, content: `${turn} ${output}` });
    messages.push({ role: 'assistant', content: `Done with step ${turn}.` });
  }
  await page.getByTestId('import-file').setInputFiles({
    name: 'long-tool-names.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify({ messages })),
  });
  await expect(page.getByTestId('import-status')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await page.getByTestId('tab-replay').click();
  await page.getByTestId('replay-run').click();
  const items = page.getByTestId('replay-pruned-item');
  await expect(items.first()).toBeVisible({ timeout: 30_000 });
  const boxes = await items.evaluateAll((elements) =>
    elements.map((element) => {
      const box = element.getBoundingClientRect();
      const meta = element.querySelector('.meta')!.getBoundingClientRect();
      // One short word: the height of one line of the row's text.
      const line = element.querySelector('.kind')!.getBoundingClientRect();
      return {
        lineHeight: line.height,
        top: box.top,
        bottom: box.bottom,
        overflow: element.scrollHeight - element.clientHeight,
        metaHeight: meta.height,
      };
    }),
  );
  expect(boxes.length).toBeGreaterThan(2);
  for (const [index, box] of boxes.entries()) {
    // Nothing spills out of the row, the tool name stays on one line, rows do not overlap.
    expect(box.overflow, `row ${index}`).toBeLessThanOrEqual(0);
    expect(box.metaHeight, `row ${index}`).toBeLessThan(box.lineHeight * 1.5);
    if (index > 0) expect(box.top, `row ${index}`).toBeGreaterThanOrEqual(boxes[index - 1]!.bottom - 0.5);
  }
  await expect(items.first().locator('.tool')).toHaveAttribute('title', tool);
  expect(errors).toEqual([]);
});
