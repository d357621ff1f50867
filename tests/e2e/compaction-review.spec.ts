/**
 * Issue 15's flow in Chromium against the mock provider: a chat with "review compactions before
 * they apply" on → an automatic compaction stops for review (the request waits) → the summary is
 * edited (a lost fact added back, a line typed) → Commit → the waiting request and the next one
 * carry the edited summary → Undo → the next request carries the original history → Redo → the
 * edited summary is back, and a reload lands on the same history. Once per compaction mode.
 * What the mock received at each step is printed (the report quotes it).
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';
import { connectChatToMock, generationRequests, mock, openChat, routeMockSteps } from './chat-helpers.ts';

test.describe.configure({ mode: 'serial' });

test.beforeEach(async ({ request }) => {
  await mock.reset(request);
});

const ORIGINAL_SUMMARY = 'ORIGINAL-SUMMARY-MARK';
const EDIT = 'EDITED-BY-REVIEWER: the ledger job must retry on a KeyError.';

/** A turn long enough that a few of them fill a 32K window; each names a file and an error. */
const turnText = (turn: number): string =>
  `Turn ${turn}: the nightly ledger job fails in src/ledger/post_${turn}.py with KeyError: account_${turn}. ` +
  'The job reconciles invoices against ledger rows and writes the totals. '.repeat(110);

interface Step {
  step: string;
  chatRequests: number;
  summaryRequests: number;
  /** Of the last chat request: how many messages it carried and what it held. */
  messages: number;
  turns: number[];
  originalSummary: boolean;
  edited: boolean;
}

/** What the mock received, summarised for one step of the flow. */
async function observe(request: APIRequestContext, step: string): Promise<Step> {
  const { chat, summaries } = await generationRequests(request);
  const last = chat.at(-1)!;
  const text = JSON.stringify(last.messages);
  const turns = [...new Set([...text.matchAll(/Turn (\d+): the nightly/g)].map((match) => Number(match[1])))];
  return {
    step,
    chatRequests: chat.length,
    summaryRequests: summaries.length,
    messages: (last.messages as unknown[]).length,
    turns,
    originalSummary: text.includes(ORIGINAL_SUMMARY),
    edited: text.includes('EDITED-BY-REVIEWER'),
  };
}

async function waitIdle(page: Page): Promise<void> {
  await expect(page.getByTestId('chat-status')).toHaveAttribute('data-status', 'idle', { timeout: 30_000 });
}

for (const mode of ['in-place', 'rotate'] as const)
  test(`review, edit, commit, undo and redo a chat compaction (${mode})`, async ({ page, request }) => {
    test.setTimeout(180_000);
    const errors = collectConsoleErrors(page);
    await routeMockSteps(page, request, (_body, isSummary) =>
      isSummary
        ? {
            kind: 'reply',
            text: `## Active Task\nKeep the ledger job green. ${ORIGINAL_SUMMARY}\n${'Reviewed the failing runs. '.repeat(20)}`,
          }
        : null,
    );
    await connectChatToMock(page, { contextWindow: 32_000, maxOutputTokens: 512 });
    await page.getByTestId('tab-plan').click();
    await page.getByTestId('setting-preset').selectOption('hermes-2026-07');
    await page.getByTestId('setting-compaction-mode').selectOption(mode);
    await page.getByTestId('setting-review-compactions').check();
    await openChat(page);

    // Chat until an automatic compaction stops for review.
    const review = page.getByTestId('compaction-review');
    let turn = 0;
    while ((await review.count()) === 0 && turn < 30) {
      turn += 1;
      await page.getByTestId('chat-input').fill(turnText(turn));
      await page.getByTestId('chat-send').click();
      await expect
        .poll(
          async () =>
            (await review.count()) > 0 ||
            (await page.getByTestId('chat-status').getAttribute('data-status')) === 'idle',
          { timeout: 30_000 },
        )
        .toBe(true);
    }
    await expect(review).toBeVisible();
    const steps: Step[] = [await observe(request, `review open (turn ${turn} waiting)`)];

    // The conversation stays readable and the request waits for the decision.
    await expect(page.getByTestId('chat-status')).toHaveAttribute('data-status', 'reviewing');
    await expect(page.locator('[data-testid="chat-message"][data-role="user"]').last()).toContainText(
      `Turn ${turn}: the nightly`,
    );
    await page.waitForTimeout(1000);
    expect((await generationRequests(request)).chat.length).toBe(steps[0]!.chatRequests);
    const editor = page.getByTestId('summary-editor');
    await expect(editor).toHaveValue(new RegExp(ORIGINAL_SUMMARY));
    // The review is taller than the chat's log: its start (the summary, Commit) is what is shown.
    await expect(editor).toBeInViewport();
    await expect(page.getByTestId('compaction-commit')).toBeInViewport();
    await expect(page.getByTestId('summary-token-count')).not.toHaveAttribute('data-tokens', '');
    const countBefore = Number(await page.getByTestId('summary-token-count').getAttribute('data-tokens'));

    // One click puts a lost fact back; then the reviewer types a line.
    const lost = review.getByTestId('lost-fact');
    const lostBefore = await lost.count();
    expect(lostBefore).toBeGreaterThan(0);
    const factText = (await lost.first().locator('code').textContent())!;
    await review.getByTestId('lost-fact-add').first().click();
    await expect(editor).toHaveValue(new RegExp(factText.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    await editor.press('End');
    await editor.pressSequentially(`\n${EDIT}`);
    await expect(review).toHaveAttribute('data-edited', 'true');
    await expect(lost).toHaveCount(lostBefore - 1, { timeout: 15_000 });
    await expect
      .poll(async () => Number(await page.getByTestId('summary-token-count').getAttribute('data-tokens')))
      .toBeGreaterThan(countBefore);
    await page.screenshot({ path: test.info().outputPath(`review-${mode}.png`) });

    await review.getByTestId('compaction-commit').click();
    await waitIdle(page);
    await expect(review).toHaveCount(0);
    const card = page.locator('[data-testid="chat-compaction"]').last();
    await expect(card).toHaveAttribute('data-outcome', mode === 'in-place' ? 'in-place' : 'rotated');
    await expect(card).toHaveAttribute('data-edited', 'true');
    const committed = await observe(request, 'after Commit (the waiting request)');
    steps.push(committed);
    expect(committed.chatRequests).toBe(steps[0]!.chatRequests + 1);
    expect(committed.edited).toBe(true);
    expect(committed.turns).toContain(turn);
    const summarised = Array.from({ length: turn }, (_, index) => index + 1).filter(
      (number) => !committed.turns.includes(number),
    );
    expect(summarised.length).toBeGreaterThan(0);

    await page.getByTestId('chat-input').fill('After the commit: still with me?');
    await page.getByTestId('chat-send').click();
    await waitIdle(page);
    const next = await observe(request, 'next message');
    steps.push(next);
    expect(next.edited).toBe(true);
    expect(next.turns).toEqual(committed.turns);

    // Undo: the original history is what the next request carries.
    const panel = page.getByTestId('chat-panel');
    await expect(panel.getByTestId('compaction-undo')).toBeEnabled();
    await panel.getByTestId('compaction-undo').click();
    await waitIdle(page);
    await expect(panel.getByTestId('compaction-redo')).toBeEnabled();
    await page.getByTestId('chat-input').fill('After the undo: what do you see?');
    await page.getByTestId('chat-send').click();
    // The restored history is over the threshold again, so the app offers a new compaction;
    // discarding it sends the request with the history as it is.
    await expect(review).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('chat-status')).toHaveAttribute('data-status', 'reviewing');
    await review.getByTestId('compaction-discard').click();
    await waitIdle(page);
    await expect(page.locator('[data-testid="chat-compaction"]').last()).toHaveAttribute(
      'data-outcome',
      'discarded',
    );
    const undone = await observe(request, 'after Undo (a new compaction offered and discarded)');
    steps.push(undone);
    expect(undone.edited).toBe(false);
    expect(undone.originalSummary).toBe(false);
    expect(undone.turns).toEqual(Array.from({ length: turn }, (_, index) => index + 1));
    expect(JSON.stringify((await generationRequests(request)).chat.at(-1)!.messages)).toContain(
      'After the commit: still with me?',
    );

    // Redo: the edited summary is back.
    await panel.getByTestId('compaction-redo').click();
    await waitIdle(page);
    await page.getByTestId('chat-input').fill('After the redo: and now?');
    await page.getByTestId('chat-send').click();
    await waitIdle(page);
    const redone = await observe(request, 'after Redo');
    steps.push(redone);
    expect(redone.edited).toBe(true);
    expect(redone.turns).toEqual(committed.turns);
    const last = JSON.stringify((await generationRequests(request)).chat.at(-1)!.messages);
    expect(last).toContain('After the undo: what do you see?');
    // Two summariser calls: the first compaction's and the discarded offer's; the edit, the
    // undo and the redo made none.
    expect(redone.summaryRequests).toBe(2);

    // A reload lands on the same history; the Sessions panel lists the epoch.
    await page.reload();
    await openChat(page);
    await expect(page.getByTestId('chat-log')).toContainText('EDITED-BY-REVIEWER');
    await expect(page.getByTestId('chat-panel').getByTestId('compaction-undo')).toBeEnabled();
    await page.getByTestId('tab-sessions').click();
    await page.getByTestId('conversation').first().getByRole('button').first().click();
    const epoch = page.getByTestId('compaction-epoch');
    await expect(epoch).toHaveCount(1);
    await expect(epoch).toHaveAttribute('data-status', 'applied');
    await expect(epoch).toHaveAttribute('data-mode', mode);
    await page.screenshot({ path: test.info().outputPath(`epochs-${mode}.png`) });

    console.log(
      `compaction review e2e (${mode}), what the mock received:\n` +
        steps
          .map(
            (step) =>
              `  ${step.step}: chat requests ${step.chatRequests}, summary requests ${step.summaryRequests}; ` +
              `last chat request ${step.messages} messages, turns [${step.turns.join(',')}], ` +
              `original summary ${step.originalSummary ? 'yes' : 'no'}, edited summary ${step.edited ? 'yes' : 'no'}`,
          )
          .join('\n'),
    );
    expect(errors).toEqual([]);
  });
