import { expect, test, type Page } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';
import { API_KEY, connectChatToMock, mock, MOCK_URL, openChat, sendChat } from './chat-helpers.ts';
import { MOCK_PROVIDER_PORT } from './playwright.config.ts';
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
        open.onerror = () => reject(open.error ?? new Error('IndexedDB request failed'));
        open.onsuccess = () => {
          const db = open.result;
          const transaction = db.transaction('messages', 'readwrite');
          let changed = 0;
          transaction.objectStore('messages').openCursor().onsuccess = (event) => {
            const cursor = (event.target as IDBRequest<IDBCursorWithValue | null>).result;
            if (!cursor) return;
            // A row holds one message, or a group of them (src/io/db/message-groups.ts).
            const row = cursor.value as {
              message?: Record<string, unknown>;
              messages?: Array<Record<string, unknown>>;
            };
            let rewritten = false;
            for (const message of row.messages ?? (row.message ? [row.message] : [])) {
              const calls = message.tool_calls as Array<{ id: string }> | undefined;
              if (Array.isArray(calls)) for (const call of calls) call.id = duplicate;
              if (typeof message.tool_call_id === 'string') message.tool_call_id = duplicate;
              if (Array.isArray(calls) || typeof message.tool_call_id === 'string') {
                changed += 1;
                rewritten = true;
              }
            }
            if (rewritten) cursor.update(row);
            cursor.continue();
          };
          transaction.oncomplete = () => {
            db.close();
            resolve(changed);
          };
          transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
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
      const root = document.querySelector(css);
      if (!root) throw new Error(`no ${css}`);
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent!.indexOf(needle);
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

test.describe('browser storage', () => {
  const smallTranscript = (label: string) =>
    JSON.stringify({
      messages: [
        { role: 'user', content: `Please remember ${label}.` },
        { role: 'assistant', content: `Remembered ${label}.` },
      ],
    });

  test('says so on start when the stored sessions disappeared since the last visit', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    for (const label of ['alpha', 'beta']) {
      await page.getByTestId('import-file').setInputFiles({
        name: `${label}.json`,
        mimeType: 'application/json',
        buffer: Buffer.from(smallTranscript(label)),
      });
      await expect(page.locator('.import-status')).toContainText('stored as a session', { timeout: 30_000 });
    }
    await expect(page.getByTestId('storage-lost-notice')).toHaveCount(0);
    // What a browser does to a best-effort site when the disk runs low: its IndexedDB is gone,
    // localStorage (not quota-managed in Chromium) stays.
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const request = indexedDB.deleteDatabase('context-lab');
          request.onsuccess = () => resolve();
          request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
        }),
    );
    await page.reload();
    const notice = page.getByTestId('storage-lost-notice');
    await expect(notice).toBeVisible({ timeout: 30_000 });
    await expect(notice).toHaveAttribute('data-lost', '2');
    await expect(notice).toContainText('2 sessions stored in this browser are gone');
    // Said once: the next start compares with the emptied store.
    await page.reload();
    await openLab(page);
    await expect(page.getByTestId('storage-lost-notice')).toHaveCount(0);
    await page.getByTestId('tab-sessions').click();
    await expect(page.getByTestId('storage-status')).not.toHaveAttribute('data-persistence', 'checking');
    await expect(page.getByTestId('storage-usage')).toContainText('used of');
    expect(errors).toEqual([]);
  });

  test('refuses an import the quota has no room for, with the figures, and keeps what was stored', async ({
    page,
  }) => {
    // A nearly full disk, as the browser's storage manager reports it: 112 MB of a 120 MB quota used.
    await page.addInitScript(() => {
      const estimate = async () => ({ usage: 112 * 1024 * 1024, quota: 120 * 1024 * 1024 });
      Object.defineProperty(navigator.storage, 'estimate', { value: estimate });
    });
    await openLab(page);
    await page.getByTestId('import-file').setInputFiles({
      name: 'kept.json',
      mimeType: 'application/json',
      buffer: Buffer.from(smallTranscript('kept')),
    });
    await expect(page.locator('.import-status')).toContainText('stored as a session', { timeout: 30_000 });
    const big = JSON.stringify({
      messages: [
        {
          role: 'user',
          content: `Here is the log:\n${'error: disk check failed at sector 7\n'.repeat(120_000)}`,
        },
        { role: 'assistant', content: 'That is a long log.' },
      ],
    });
    await page.getByTestId('import-file').setInputFiles({
      name: 'big-log.json',
      mimeType: 'application/json',
      buffer: Buffer.from(big),
    });
    const status = page.getByTestId('import-status');
    await expect(status).toHaveAttribute('data-status', 'not-stored', { timeout: 60_000 });
    await expect(status).toContainText(
      /2 messages imported, but not stored: Not enough browser storage: this needs about 1\d MB, but only 8\.0 MB of the 120 MB this site may use are free\. Nothing was saved/,
    );
    await page.getByTestId('tab-sessions').click();
    await expect(page.getByTestId('storage-usage')).toHaveText('112 MB used of 120 MB.');
    const list = page.getByTestId('sessions-tab');
    await expect(list.getByText('kept.json').first()).toBeVisible();
    await expect(list.getByText('big-log.json')).toHaveCount(0);
  });
});

test.describe('the API key and the base URL', () => {
  test('a saved key never follows the base URL to another host, not even after a reload', async ({
    page,
    request,
  }) => {
    const errors = collectConsoleErrors(page);
    await connectChatToMock(page);
    await sendChat(page, 'Before the change.');
    const before = await mock.requests(request);
    expect(before.some((sent) => String(sent.headers.authorization) === `Bearer ${API_KEY}`)).toBe(true);

    // Another origin, served by the same mock: whatever reaches it is recorded.
    await mock.reset(request);
    const withKey: string[] = [];
    page.on('request', (sent) => {
      if (Object.values(sent.headers()).some((value) => value.includes(API_KEY))) withKey.push(sent.url());
    });
    const otherHost = `http://localhost:${MOCK_PROVIDER_PORT}`;
    await page.getByTestId('tab-provider').click();
    await page.getByTestId('setting-base-url').fill(otherHost);
    await page.getByTestId('setting-base-url').press('Enter');
    await expect(page.getByTestId('api-key-origin-changed')).toContainText(`saved for ${MOCK_URL}`);
    await expect(page.getByTestId('api-key-hint')).toHaveCount(0);

    await openChat(page);
    await sendChat(page, 'After the change.');
    await expect(page.getByTestId('chat-error')).toContainText('No API key is set');
    await page.reload();
    await openChat(page);
    await sendChat(page, 'After a reload.');
    await expect(page.getByTestId('chat-error')).toContainText('No API key is set');

    const after = await mock.requests(request);
    expect(after.filter((sent) => JSON.stringify(sent.headers).includes(API_KEY))).toEqual([]);
    expect(withKey).toEqual([]);
    // A key entered for the new host is used there; the old one stays with its own host.
    await page.getByTestId('tab-provider').click();
    await page.getByTestId('api-key').fill('sk-ant-e2e-second-key-for-localhost');
    await page.getByTestId('api-key-save').click();
    await openChat(page);
    await sendChat(page, 'With the new key.');
    const last = (await mock.requests(request)).filter((sent) => sent.path === '/v1/messages').at(-1)!;
    expect(String(last.headers.authorization)).toBe('Bearer sk-ant-e2e-second-key-for-localhost');
    expect(errors.filter((error) => !/Failed to load resource/.test(error))).toEqual([]);
  });

  test('a base URL the page policy does not allow yet says "reload to allow HOST"', async ({ page }) => {
    await openLab(page);
    await page.getByTestId('tab-provider').click();
    await page.getByTestId('setting-base-url').fill('https://api.newhost.example');
    await page.getByTestId('setting-base-url').press('Enter');
    await expect(page.getByTestId('provider-reload-needed')).toContainText(
      'Reload the page to allow api.newhost.example',
    );
    await page.getByTestId('api-key').fill('sk-ant-e2e-newhost-key');
    await page.getByTestId('api-key-save').click();
    await openChat(page);
    await page.getByTestId('chat-input').fill('Hello there.');
    await page.getByTestId('chat-send').click();
    await expect(page.getByTestId('chat-error')).toContainText(
      'Reload the page to allow api.newhost.example',
    );
    // After a reload the policy names the configured host.
    await page.reload();
    await page.getByTestId('tab-provider').click();
    await expect(page.getByTestId('setting-base-url')).toHaveValue('https://api.newhost.example');
    await expect(page.getByTestId('provider-reload-needed')).toHaveCount(0);
    const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(policy).toContain('https://api.newhost.example');
  });
});
