import { expect, test, type Page } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';
import {
  API_KEY,
  connectChatToMock,
  generationRequests,
  LONG_SYSTEM_PROMPT,
  mock,
  MOCK_HOST,
  openChat,
  routeMockSteps,
  sendChat,
  setChatOptions,
  usageAttribute,
} from './chat-helpers.ts';

test.describe.configure({ mode: 'serial' });

test.beforeEach(async ({ request }) => {
  await mock.reset(request);
});

/** Records whether the streaming reply element was ever on the page (streams are fast). */
async function watchStreaming(page: Page): Promise<() => Promise<boolean>> {
  await page.evaluate(() => {
    const flag = window as unknown as { sawStreaming?: boolean };
    flag.sawStreaming = false;
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="chat-streaming"]')) flag.sawStreaming = true;
    }).observe(document.body, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { sawStreaming?: boolean }).sawStreaming === true);
}

test('streams a reply with Markdown and code blocks, and the key goes only to the provider', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const requestsWithKey: string[] = [];
  page.on('request', (sent) => {
    const headers = sent.headers();
    if (Object.values(headers).some((value) => value.includes(API_KEY))) requestsWithKey.push(sent.url());
  });
  await connectChatToMock(page);
  const sawStreaming = await watchStreaming(page);
  const reply =
    '## Plan\n\nHere is **bold** text, `inline code` and a [link](https://example.com).\n\n' +
    '```python\ndef add(a, b):\n    return a + b\n```\n\n- first\n- second\n\n<script>alert(1)</script>';
  await mock.script(request, [{ kind: 'reply', text: reply }]);
  await sendChat(page, 'Show me a plan with code.');

  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toHaveCount(1);
  const answer = page.locator('[data-testid="chat-message"][data-role="assistant"]');
  await expect(answer.locator('h2')).toHaveText('Plan');
  await expect(answer.locator('strong')).toHaveText('bold');
  await expect(answer.getByTestId('chat-code-block')).toContainText('def add(a, b):');
  await expect(answer.locator('a[href="https://example.com"]')).toHaveAttribute('rel', /noopener/);
  await expect(answer.locator('li')).toHaveCount(2);
  // Model output never becomes markup: the script tag is text.
  await expect(answer).toContainText('<script>alert(1)</script>');
  expect(await page.locator('[data-testid="chat-message"] script').count()).toBe(0);
  expect(await sawStreaming()).toBe(true);

  const [sent] = (await mock.requests(request)).filter((recorded) => recorded.path === '/v1/messages');
  expect(sent!.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
  expect(String(sent!.headers.authorization)).toBe(`Bearer ${API_KEY}`);
  // Every request that carried the key went to the configured host.
  expect(requestsWithKey.length).toBeGreaterThan(0);
  expect(requestsWithKey.filter((url) => new URL(url).host !== MOCK_HOST)).toEqual([]);
  expect(await page.content()).not.toContain(API_KEY);
  await page.screenshot({ path: test.info().outputPath('chat-markdown.png') });
  expect(errors).toEqual([]);
});

test('cache reads rise from turn to turn', async ({ page }) => {
  await connectChatToMock(page, { systemPrompt: LONG_SYSTEM_PROMPT });
  const reads: number[] = [];
  for (let turn = 1; turn <= 4; turn++) {
    await sendChat(
      page,
      `Turn ${turn}: what does module ${turn} do? ${'Context about the module. '.repeat(40)}`,
    );
    reads.push(await usageAttribute(page, 'last-cache-read-tokens'));
  }
  expect(reads[0]).toBe(0);
  for (let index = 1; index < reads.length; index++) expect(reads[index]!).toBeGreaterThan(reads[index - 1]!);
  await expect(page.getByTestId('chat-usage')).toContainText('cache hits');
});

/** 40 turns on a fresh conversation; returns the input cost (USD) and the cache hit rate. */
async function fortyTurns(page: Page, label: string): Promise<{ inputCost: number; hitRate: number }> {
  for (let turn = 1; turn <= 40; turn++) {
    await sendChat(
      page,
      `${label} turn ${turn}: ${'Please check the ledger totals for this account. '.repeat(12)}`,
    );
  }
  await expect(page.getByTestId('chat-usage')).toHaveAttribute('data-requests', '40');
  return {
    inputCost: await usageAttribute(page, 'input-cost'),
    hitRate: await usageAttribute(page, 'cache-hit-rate'),
  };
}

test('a 40-turn conversation costs at least 70% less input with prompt caching', async ({ page }) => {
  test.setTimeout(180_000);
  await connectChatToMock(page, { systemPrompt: LONG_SYSTEM_PROMPT, promptCaching: true });
  const cached = await fortyTurns(page, 'Cached');
  await page.getByTestId('chat-new').click();
  await setChatOptions(page, { promptCaching: false });
  await expect(page.getByTestId('chat-usage')).toHaveAttribute('data-requests', '0');
  const uncached = await fortyTurns(page, 'Uncached');
  const saving = 1 - cached.inputCost / uncached.inputCost;
  console.log(
    `40-turn input cost: cached $${cached.inputCost.toFixed(4)} (cache hit rate ${(cached.hitRate * 100).toFixed(1)}%), ` +
      `uncached $${uncached.inputCost.toFixed(4)}; ${(saving * 100).toFixed(1)}% lower with caching`,
  );
  expect(uncached.hitRate).toBe(0);
  expect(cached.inputCost).toBeGreaterThan(0);
  expect(saving).toBeGreaterThanOrEqual(0.7);
});

test('an overflow is compressed and retried', async ({ page, request }) => {
  // The app believes in the catalog's 200K window; the provider only takes 32K.
  await mock.configure(request, { contextWindow: 32_000 });
  await connectChatToMock(page, { maxOutputTokens: 512 });
  const big = (turn: number): string =>
    `Turn ${turn}: ${'Here is a long log line for the record. '.repeat(700)}`;
  for (let turn = 1; turn <= 4; turn++) await sendChat(page, big(turn));
  await sendChat(page, big(5));
  await expect(
    page.getByTestId('chat-notice').filter({ hasText: 'did not fit the context window' }),
  ).toBeVisible();
  const card = page.locator('[data-testid="chat-compaction"][data-reason="overflow"]');
  await expect(card).toHaveAttribute('data-outcome', 'rotated');
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]').last()).toContainText(
    'Mock reply to: Turn 5:',
  );
  await expect(page.getByTestId('chat-error')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('chat-overflow.png') });
});

test('a 32K conversation compacts, continues in the child, compacts again iteratively and resumes at the tip', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await mock.configure(request, { contextWindow: 32_000 });
  let summaries = 0;
  await routeMockSteps(page, request, (_body, isSummary) =>
    isSummary
      ? {
          kind: 'reply',
          text: `## Active Task\nKeep reviewing the ledger. SUMMARY-${++summaries}\n${'Reviewed modules. '.repeat(30)}`,
        }
      : null,
  );
  await connectChatToMock(page, { contextWindow: 32_000, maxOutputTokens: 1024 });
  const rotated = page.locator('[data-testid="chat-compaction"][data-outcome="rotated"]');
  let turn = 0;
  while ((await rotated.count()) < 2 && turn < 60) {
    turn += 1;
    await sendChat(
      page,
      `Turn ${turn}: review ledger module ${turn}. ${'The module writes ledger rows. '.repeat(120)}`,
    );
  }
  await expect(rotated).toHaveCount(2);
  const counts = await rotated.evaluateAll((cards) => cards.map((card) => card.getAttribute('data-count')));
  expect(counts).toEqual(['1', '2']);
  const figures = await rotated.evaluateAll((cards) =>
    cards.map((card) => ({
      before: Number(card.getAttribute('data-tokens-before')),
      after: Number(card.getAttribute('data-tokens-after')),
    })),
  );
  for (const figure of figures) expect(figure.after).toBeLessThan(figure.before);
  console.log(
    `32K chat: compactions after turns up to ${turn}: ${figures.map((figure) => `${figure.before} → ${figure.after}`).join(', ')}`,
  );
  await expect(page.getByTestId('chat-warning')).toContainText(
    'Session compressed 2 times — accuracy may degrade',
  );
  // Said once: the banner, not again on the compaction card (issue 16).
  await expect(page.getByTestId('chat-panel').getByText(/Session compressed 2 times/)).toHaveCount(1);
  await expect(page.getByTestId('chat-session-title')).toContainText('#3');

  // The second summary request carried the first summary: an iterative update.
  const { summaries: summaryBodies } = await generationRequests(request);
  expect(summaryBodies).toHaveLength(2);
  expect(JSON.stringify(summaryBodies[1]!.messages)).toContain('SUMMARY-1');

  // The conversation continues in the child and after a reload resumes there.
  await sendChat(page, 'After two compactions: still with me?');
  const tipId = await page.getByTestId('chat-session-title').getAttribute('data-session-id');
  const tipTitle = await page.getByTestId('chat-session-title').textContent();
  await rotated.last().getByTestId('chat-compaction-summary-toggle').click();
  await expect(rotated.last().getByTestId('chat-compaction-summary')).toContainText('SUMMARY-2');
  await page.screenshot({ path: test.info().outputPath('chat-compacted.png') });
  await page.reload();
  await openChat(page);
  await expect(page.getByTestId('chat-session-title')).toHaveAttribute('data-session-id', tipId!);
  await expect(page.getByTestId('chat-session-title')).toHaveText(tipTitle!);
  await expect(page.getByTestId('chat-summary-message').first()).toBeVisible();
  await expect(page.locator('[data-testid="chat-message"][data-role="user"]').last()).toContainText(
    'After two compactions',
  );
  await page.screenshot({ path: test.info().outputPath('chat-resumed.png') });
});

test('two tabs never compact the same session twice', async ({ page, context, request }) => {
  await connectChatToMock(page);
  // Long enough that summarising them shrinks the context (a compaction that would grow it is refused).
  for (let turn = 1; turn <= 5; turn++)
    await sendChat(
      page,
      `Turn ${turn}: a question about invoices. ${'They reconcile against ledger rows. '.repeat(40)}`,
    );
  const rootId = await page.getByTestId('chat-session-title').getAttribute('data-session-id');
  const second = await context.newPage();
  await second.goto('/');
  await openChat(second);
  await expect(second.getByTestId('chat-session-title')).toHaveAttribute('data-session-id', rootId!);

  // Hold each summary call for a moment so the two compactions overlap.
  await context.route('**/v1/messages', async (route) => {
    const body = route.request().postData() ?? '';
    if (!body.includes('"tools"')) await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await Promise.all([
    (async () => {
      await page.getByTestId('chat-input').fill('/compress');
      await page.getByTestId('chat-send').click();
    })(),
    (async () => {
      await second.getByTestId('chat-input').fill('/compress');
      await second.getByTestId('chat-send').click();
    })(),
  ]);
  // /compress stops for review in the tab that got the lock; the other was told it is busy.
  await expect
    .poll(
      async () =>
        (await page.getByTestId('compaction-review').count()) +
        (await second.getByTestId('compaction-review').count()),
      {
        timeout: 30_000,
      },
    )
    .toBe(1);
  const reviewing = (await page.getByTestId('compaction-review').count()) > 0 ? page : second;
  await reviewing.getByTestId('compaction-commit').click();
  for (const tab of [page, second]) {
    await expect(tab.getByTestId('chat-status')).toHaveAttribute('data-status', 'idle', { timeout: 30_000 });
  }
  const outcomes = [
    ...(await page
      .getByTestId('chat-compaction')
      .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-outcome')))),
    ...(await second
      .getByTestId('chat-compaction')
      .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-outcome')))),
  ].sort();
  expect(outcomes[outcomes.length - 1]).toBe('rotated');
  expect(outcomes.filter((outcome) => outcome === 'rotated')).toHaveLength(1);

  const children = await page.evaluate(
    (parent) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('context-lab');
        open.onerror = () => reject(open.error ?? new Error('IndexedDB request failed'));
        open.onsuccess = () => {
          const all = open.result.transaction('sessions').objectStore('sessions').getAll();
          all.onsuccess = () =>
            resolve(
              (all.result as Array<{ parentSessionId: string | null }>).filter(
                (row) => row.parentSessionId === parent,
              ).length,
            );
          all.onerror = () => reject(all.error ?? new Error('IndexedDB request failed'));
        };
      }),
    rootId,
  );
  expect(children).toBe(1);
  expect((await generationRequests(request)).summaries).toHaveLength(1);
  // The tab that did not compact moves to the continuation with its next message.
  await sendChat(second, 'Turn 6: still there?');
  await sendChat(page, 'Turn 7: and here?');
  const tips = await Promise.all(
    [page, second].map((tab) => tab.getByTestId('chat-session-title').getAttribute('data-session-id')),
  );
  expect(tips[0]).toBe(tips[1]);
  expect(tips[0]).not.toBe(rootId);
});

test('a 60-turn conversation with tool calls on a 32K window compacts at least twice and never loses a turn', async ({
  page,
  request,
}) => {
  test.setTimeout(420_000);
  await mock.configure(request, { contextWindow: 32_000 });
  let currentTurn = 0;
  const requestsMissingTheLatestAsk: number[] = [];
  await routeMockSteps(page, request, (body, isSummary) => {
    if (isSummary)
      return { kind: 'reply', text: `## Active Task\nReview the ledger. ${'Reviewed modules. '.repeat(30)}` };
    // Every model request of turn N, including those after a compaction, must carry turn N's ask.
    if (!JSON.stringify(body.messages).includes(`Turn ${currentTurn}:`))
      requestsMissingTheLatestAsk.push(currentTurn);
    const last = body.messages[body.messages.length - 1] as { role: string; content: unknown };
    const answeringTheUser =
      last.role === 'user' && JSON.stringify(last.content).includes(`Turn ${currentTurn}:`);
    // Every third turn the model first calls a browser tool, so tool groups live in the transcript.
    if (answeringTheUser && currentTurn % 3 === 0) {
      return {
        kind: 'reply',
        toolCalls: [{ name: 'search_sessions', arguments: { query: 'ledger', limit: 2 } }],
      };
    }
    return null;
  });
  await connectChatToMock(page, { contextWindow: 32_000, maxOutputTokens: 1024 });
  for (currentTurn = 1; currentTurn <= 60; currentTurn++) {
    await sendChat(
      page,
      `Turn ${currentTurn}: review ledger module ${currentTurn}. ${'The module writes rows. '.repeat(120)}`,
    );
  }
  currentTurn = 0;

  const rotated = page.locator('[data-testid="chat-compaction"][data-outcome="rotated"]');
  expect(await rotated.count()).toBeGreaterThanOrEqual(2);
  expect(requestsMissingTheLatestAsk).toEqual([]);
  const toolRounds = (await generationRequests(request)).chat.filter((body) =>
    JSON.stringify(body.messages).includes('"tool_result"'),
  );
  expect(toolRounds.length).toBeGreaterThan(0);

  // Every turn is still stored and reachable through the sessions of the lineage.
  const storedTurns = await page.evaluate(
    () =>
      new Promise<number[]>((resolve, reject) => {
        const open = indexedDB.open('context-lab');
        open.onerror = () => reject(open.error ?? new Error('IndexedDB request failed'));
        open.onsuccess = () => {
          const read = open.result.transaction('messages').objectStore('messages').getAll();
          read.onerror = () => reject(read.error ?? new Error('IndexedDB request failed'));
          read.onsuccess = () => {
            const turns = new Set<number>();
            type Stored = { role: string; content: unknown };
            // A row holds one message, or a group of them (src/io/db/message-groups.ts).
            const rows = read.result as Array<{ message?: Stored; messages?: Stored[] }>;
            for (const message of rows.flatMap((row) => row.messages ?? (row.message ? [row.message] : []))) {
              if (message.role !== 'user') continue;
              const match = /^Turn (\d+):/.exec(typeof message.content === 'string' ? message.content : '');
              if (match) turns.add(Number(match[1]));
            }
            resolve([...turns].sort((a, b) => a - b));
          };
        };
      }),
  );
  expect(storedTurns).toEqual(Array.from({ length: 60 }, (_, index) => index + 1));
  const lineageTitle = await page.getByTestId('chat-session-title').textContent();
  console.log(
    `60-turn 32K chat with tool calls: ${await rotated.count()} compactions, now in "${lineageTitle}"`,
  );
});
