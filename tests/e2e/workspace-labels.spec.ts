import { resolve } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';
import { CLAUDE_MODEL, connectChatToMock, mock, openChat, sendChat } from './chat-helpers.ts';

/**
 * Issue 16, finding 7: labels that were stale or wrong. (The unpriced model's "price unknown" is in
 * providers.spec.ts, "Session compressed 2 times" said once in chat.spec.ts, the usage chart's
 * stacked compaction labels in tests/ui/usage/usage-chart.test.ts.)
 */

const CLAUDE_CODE = resolve(import.meta.dirname, '../../../shared/corpus/transcripts/claude-code');

/** Whether an element shows all of its text (no ellipsis). */
const showsWhole = (locator: Locator): Promise<boolean> =>
  locator.evaluate((element) => element.scrollWidth <= element.clientWidth);

async function openStoredConversation(page: Page, title: RegExp): Promise<void> {
  await page.getByTestId('tab-sessions').click();
  const entry = page.getByTestId('conversation').filter({ hasText: title });
  await entry.getByRole('button').first().click();
  await page.getByTestId('lineage-view').getByTestId('segment-open').last().click();
}

test.beforeEach(async ({ request }) => {
  await mock.reset(request);
});

test('at 1280 px the title and the model are whole, and the gauge says what its figures are', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  await expect(page.getByTestId('message-count')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('import-file').setInputFiles(resolve(CLAUDE_CODE, 'agent-sessions__small.jsonl'));
  await expect(page.getByTestId('import-status')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(page.getByTestId('session-title')).toHaveText('Claude Code: Context usage summary');
  await expect(page.getByTestId('session-source')).toHaveText(
    'imported · Claude Code JSONL · recorded with claude-sonnet-5',
  );
  expect(await showsWhole(page.getByTestId('session-title'))).toBe(true);
  await expect(page.getByTestId('provider-model')).toContainText('claude-haiku-4-5 · Anthropic (no key)');
  expect(await showsWhole(page.getByTestId('provider-model'))).toBe(true);
  // "108K / 100K / 200K" said nothing; each figure is named.
  await expect(page.getByTestId('context-gauge-used')).toHaveText(/^\d[\d.,K]*( rough)? in context$/);
  await expect(page.getByTestId('context-gauge-limits')).toHaveText('trigger 100K · window 200K');
  await page.locator('header.top-bar').screenshot({ path: test.info().outputPath('top-bar-1280.png') });
  // All seven inspector tabs stay in sight, the first one too while the last is open.
  await page.getByTestId('tab-compare').click();
  expect(await showsWhole(page.getByRole('tablist', { name: 'Inspector panels' }))).toBe(true);
  await expect(page.getByTestId('tab-plan')).toBeInViewport({ ratio: 1 });
  expect(errors).toEqual([]);
});

test('a chat session opened from Sessions is called a chat session, and the old import line goes', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  await connectChatToMock(page);
  await sendChat(page, 'A chat to keep.');
  await expect(page.getByTestId('chat-error')).toHaveCount(0);
  // An import afterwards leaves its status line on screen.
  await page.getByTestId('import-file').setInputFiles(resolve(CLAUDE_CODE, 'agent-sessions__small.jsonl'));
  await expect(page.getByTestId('import-status')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(page.getByTestId('import-status')).toBeVisible();

  await openStoredConversation(page, /A chat to keep/);
  // Shown as the request it sends: the system prompt first, then the two messages.
  await expect(page.getByTestId('message-count')).toHaveText('3');
  await expect(page.getByTestId('session-source')).toHaveText(`stored chat session · with ${CLAUDE_MODEL}`);
  await expect(page.getByTestId('session-source')).not.toContainText('imported');
  await expect(page.getByTestId('import-status')).toBeHidden();

  // A stored import says so, with its format.
  await openStoredConversation(page, /Context usage summary/);
  await expect(page.getByTestId('message-count')).toHaveText('10');
  await expect(page.getByTestId('session-source')).toHaveText(
    'stored import · Claude Code JSONL · recorded with claude-sonnet-5',
  );
  expect(errors.filter((error) => !/Failed to load resource/.test(error))).toEqual([]);
});

test('after a reload, a failed turn offers Retry, which answers it', async ({ page, request }) => {
  const errors = collectConsoleErrors(page);
  await connectChatToMock(page);
  await mock.script(request, [
    {
      kind: 'error',
      status: 400,
      body: { type: 'error', error: { type: 'invalid_request_error', message: 'Scripted refusal.' } },
    },
  ]);
  await sendChat(page, 'Answer me after the reload.');
  await expect(page.getByTestId('chat-error')).toContainText('Scripted refusal');
  await expect(page.getByTestId('chat-retry')).toBeVisible();

  await page.reload();
  await openChat(page);
  await expect(page.locator('[data-testid="chat-message"][data-role="user"]')).toContainText(
    'Answer me after the reload.',
  );
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toHaveCount(0);
  // Before the fix: an unanswered user message and nothing to do about it.
  await expect(page.getByTestId('chat-unanswered')).toContainText('The last message has no reply');
  await page.getByTestId('chat-retry').click();
  await expect(page.locator('[data-testid="chat-message"][data-role="assistant"]')).toContainText(
    'Mock reply to: Answer me after the reload.',
  );
  await expect(page.getByTestId('chat-retry')).toHaveCount(0);
  expect(errors.filter((error) => !/Failed to load resource/.test(error))).toEqual([]);
});
