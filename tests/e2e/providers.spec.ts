import { expect, test } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';
import {
  API_KEY,
  connectChatToMock,
  generationRequests,
  mock,
  MOCK_HOST,
  MOCK_URL,
  sendChat,
} from './chat-helpers.ts';
import { openLab } from './lab-helpers.ts';

test.describe.configure({ mode: 'serial' });

test.beforeEach(async ({ request }) => {
  await mock.reset(request);
});

test('Anthropic from the browser: the direct-access header, and the key only to the configured host', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const sentWithKey: Array<{ host: string; header: string }> = [];
  await page.route('**/*', async (route) => {
    const headers = route.request().headers();
    for (const [name, value] of Object.entries(headers)) {
      if (value.includes(API_KEY))
        sentWithKey.push({ host: new URL(route.request().url()).host, header: name });
    }
    await route.continue();
  });
  await connectChatToMock(page);
  await sendChat(page, 'hello');
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toContainText(
    'Mock reply to: hello',
  );
  const recorded = (await mock.requests(request)).filter((sent) => sent.path === '/v1/messages');
  expect(recorded).toHaveLength(1);
  expect(recorded[0]!.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
  expect(recorded[0]!.headers['anthropic-version']).toBeTruthy();
  expect(sentWithKey.length).toBeGreaterThan(0);
  expect(sentWithKey.every((entry) => entry.host === MOCK_HOST && entry.header === 'authorization')).toBe(
    true,
  );
  expect(errors).toEqual([]);
});

test('a 429 is waited out and the reply arrives', async ({ page, request }) => {
  await connectChatToMock(page);
  await mock.script(request, [{ kind: 'rate-limit', retryAfterSeconds: 1 }]);
  await sendChat(page, 'are you busy?');
  await expect(page.getByTestId('chat-notice').filter({ hasText: '429' })).toContainText('Retrying in 1.0 s');
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toContainText(
    'Mock reply to: are you busy?',
  );
  expect((await generationRequests(request)).chat).toHaveLength(2);
  await expect(page.getByTestId('chat-error')).toHaveCount(0);
});

test('an output-cap error is retried with a lower max_tokens, without compressing', async ({
  page,
  request,
}) => {
  await connectChatToMock(page, { maxOutputTokens: 4096 });
  await mock.script(request, [
    { kind: 'output-cap', maxTokens: 4096, contextWindow: 32_000, inputTokens: 30_000 },
  ]);
  await sendChat(page, 'a long answer please');
  await expect(page.getByTestId('chat-notice').filter({ hasText: 'max_tokens 1,936' })).toBeVisible();
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toContainText(
    'Mock reply to',
  );
  const { chat, summaries } = await generationRequests(request);
  expect(chat.map((body) => body.max_tokens)).toEqual([4096, 1936]);
  expect(summaries).toHaveLength(0);
  await expect(page.getByTestId('chat-compaction')).toHaveCount(0);
});

test('a stream that keeps breaking is reported plainly, the message is kept, and Retry answers it', async ({
  page,
  request,
}) => {
  await connectChatToMock(page);
  const cut = { kind: 'stream-cut', afterEvents: 4 } as const;
  await mock.script(request, [cut, cut, cut]);
  await sendChat(page, 'tell me a story');
  await expect(page.getByTestId('chat-error')).toContainText(/cut off|incomplete|broken/i);
  await expect(page.locator('[data-testid="chat-message"][data-role="user"]')).toHaveText(/tell me a story/);
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toHaveCount(0);
  await expect(
    page.getByTestId('chat-notice').filter({ hasText: 'Partial reply discarded' }).first(),
  ).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('chat-stream-cut.png') });

  // Reload: the user message was stored, the broken reply was not.
  await page.reload();
  await page.getByTestId('tab-chat').click();
  await expect(page.locator('[data-testid="chat-message"][data-role="user"]')).toHaveText(/tell me a story/);
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toHaveCount(0);
  // Retry is offered again after a reload only when the last turn failed in this tab; send it again instead.
  await sendChat(page, 'tell me a story, please');
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toContainText(
    'Mock reply to',
  );
});

test('Retry after a cut stream answers the kept message', async ({ page, request }) => {
  await connectChatToMock(page);
  const cut = { kind: 'stream-cut', afterEvents: 4 } as const;
  await mock.script(request, [cut, cut, cut]);
  await sendChat(page, 'first try');
  await page.getByTestId('chat-retry').click();
  await expect(page.getByTestId('chat-status')).toHaveAttribute('data-status', 'idle');
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toContainText(
    'Mock reply to: first try',
  );
  await expect(page.locator('[data-testid="chat-message"][data-role="user"]')).toHaveCount(1);
});

test('Stop cancels a reply in flight and keeps the conversation consistent', async ({ page, request }) => {
  await connectChatToMock(page);
  await mock.script(request, [{ kind: 'timeout' }]);
  await page.getByTestId('chat-input').fill('this will hang');
  await page.getByTestId('chat-send').click();
  // Stop once the request is out and hanging, so the scripted hang is not left for the retry.
  await expect.poll(async () => (await mock.requests(request)).length).toBe(1);
  await page.getByTestId('chat-stop').click();
  await expect(page.getByTestId('chat-status')).toHaveAttribute('data-status', 'idle');
  await expect(page.getByTestId('chat-retry')).toBeVisible();
  await page.getByTestId('chat-retry').click();
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toContainText(
    'Mock reply to: this will hang',
  );
});

test('an OpenAI-compatible endpoint streams into the chat with the key sent only there', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const sentWithKey: string[] = [];
  page.on('request', (sent) => {
    if (Object.values(sent.headers()).some((value) => value.includes(API_KEY)))
      sentWithKey.push(new URL(sent.url()).host);
  });
  await openLab(page);
  await page.getByTestId('tab-provider').click();
  await page.getByTestId('setting-provider').selectOption('openai-compatible');
  await page.getByTestId('setting-base-url').fill(`${MOCK_URL}/v1`);
  await page.getByTestId('setting-base-url').press('Enter');
  await page.getByTestId('setting-model').fill('gpt-4o');
  await page.getByTestId('setting-model').press('Enter');
  await page.getByTestId('api-key').fill(API_KEY);
  await page.getByTestId('api-key-save').click();
  await page.getByTestId('tab-chat').click();
  await sendChat(page, 'hello over chat completions');
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toContainText(
    'Mock reply to: hello over chat completions',
  );
  const recorded = (await mock.requests(request)).filter((sent) => sent.path === '/v1/chat/completions');
  expect(recorded).toHaveLength(1);
  expect(String(recorded[0]!.headers.authorization)).toBe(`Bearer ${API_KEY}`);
  expect(recorded[0]!.headers['anthropic-dangerous-direct-browser-access']).toBeUndefined();
  expect(sentWithKey.length).toBeGreaterThan(0);
  expect(sentWithKey.every((host) => host === MOCK_HOST)).toBe(true);
  // A custom endpoint has no price in the table: its cost is unknown, never "$0" (issue 16).
  await expect(page.getByTestId('chat-usage-cost')).toHaveText('price unknown');
  await expect(page.getByTestId('chat-usage')).not.toContainText('$');
  expect(errors).toEqual([]);
});
