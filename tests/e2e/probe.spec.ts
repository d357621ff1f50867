import { expect, test, type APIRequestContext, type Page, type Route } from '@playwright/test';
import type { MockScriptStep } from '../mock-provider/mock-provider-server.ts';
import { API_KEY, CLAUDE_MODEL, MOCK_URL, mock } from './chat-helpers.ts';
import { collectConsoleErrors } from './console-errors.ts';
import { openLab } from './lab-helpers.ts';

const SCREENS = '/work/notes/screens';
const PLANTED = /(P\d+) = \\?"([a-z]+-[a-z]+-\d{4})\\?"/g;
const plantedValues = (text: string): Map<string, string> =>
  new Map([...text.matchAll(PLANTED)].map((match) => [match[1]!, match[2]!]));
const QUESTION = 'Earlier in this conversation you were given facts';

/** Points the Anthropic provider at the mock with a key, staying in the lab. */
async function connectToMock(page: Page): Promise<void> {
  await page.getByTestId('tab-provider').click();
  await page.getByTestId('setting-base-url').fill(MOCK_URL);
  await page.getByTestId('setting-base-url').press('Enter');
  await page.getByTestId('setting-model').fill(CLAUDE_MODEL);
  await page.getByTestId('setting-model').press('Enter');
  await page.getByTestId('api-key').fill(API_KEY);
  await page.getByTestId('api-key-save').click();
  await expect(page.getByTestId('api-key-hint')).toBeVisible();
}

/**
 * Answers each generation request from its body, queuing the mock's step while the browser's
 * request waits: the planted values are random, so the summary and the answer are written from
 * what the requests carry. The replay's own summary gets a plain one; the probe's summariser
 * keeps P1–P3 and loses P4 and P5; the answer gets P1 right, P2 wrong, P3 unknown, no P4 and P5
 * right.
 */
async function scriptProbeReplies(page: Page, request: APIRequestContext): Promise<void> {
  let planted = new Map<string, string>();
  await page.route(`${MOCK_URL}/v1/messages`, async (route: Route) => {
    const text = route.request().postData() ?? '';
    let step: MockScriptStep | null = null;
    if (route.request().method() === 'POST' && text) {
      if (text.includes(QUESTION)) {
        step = {
          kind: 'reply',
          text: `Here they are:\n**P1**: \`${planted.get('P1')}\`\nP2: wrong-guess-0000\nP3: unknown\nP5 = "${planted.get('P5')}"`,
        };
      } else {
        const values = plantedValues(text);
        if (values.size === 0) step = { kind: 'reply', text: '## Goal\nREPLAY SUMMARY' };
        else {
          planted = values;
          const kept = ['P1', 'P2', 'P3'].map((label) => `${label} = "${values.get(label)}"`).join('\n');
          step = { kind: 'reply', text: `## Goal\nFinish the task.\n\n## Critical Context\n${kept}` };
        }
      }
    }
    if (step) await mock.script(request, [step]);
    await route.continue();
  });
}

test.describe('probe mode', () => {
  test('without a key the replay’s probe panel says why it cannot run', async ({ page }) => {
    await openLab(page);
    await page.getByTestId('tab-replay').click();
    await page.getByTestId('replay-run').click();
    await expect(page.getByTestId('replay-result')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('probe-unavailable')).toContainText('needs a provider key');
    await expect(page.getByTestId('probe-run')).toHaveCount(0);
  });

  test('plants facts, compacts with the provider’s summariser, asks the model and shows its recall', async ({
    page,
    request,
  }) => {
    const errors = collectConsoleErrors(page);
    // Tall enough for the whole panel (facts and calls) in one screenshot.
    await page.setViewportSize({ width: 1440, height: 1800 });
    await mock.reset(request);
    await openLab(page);
    await connectToMock(page);
    await scriptProbeReplies(page, request);
    await page.getByTestId('tab-replay').click();
    await page.getByTestId('replay-run').click();
    await expect(page.getByTestId('replay-result')).toBeVisible({ timeout: 30_000 });

    const panel = page.getByTestId('probe-panel');
    await expect(panel).toBeVisible();
    // The opt-in: N, the model that answers, the calls (one Hermes summary + the question), the price.
    await expect(page.getByTestId('probe-count')).toHaveValue('5');
    const estimate = page.getByTestId('probe-estimate');
    await expect(estimate).toHaveAttribute('data-calls', '2');
    await expect(estimate).toContainText(CLAUDE_MODEL);
    await expect(estimate).toContainText('1 summariser call');
    await expect(page.getByTestId('probe-estimate-usd')).toContainText('$');
    const sentBefore = (await mock.requests(request)).filter((recorded) => recorded.path === '/v1/messages');
    expect(sentBefore).toHaveLength(1); // the replay's own summary; nothing of the probe yet
    await panel.scrollIntoViewIfNeeded();
    await panel.screenshot({ path: `${SCREENS}/probe-before.png` });

    await page.getByTestId('probe-run').click();
    const recall = page.getByTestId('probe-recall');
    await expect(recall).toBeVisible({ timeout: 30_000 });
    await expect(recall).toHaveAttribute('data-recall', '0.4');
    await expect(recall).toContainText('Recall 40%');

    const rows = page.getByTestId('probe-fact');
    await expect(rows).toHaveCount(5);
    const expected = [
      ['P1', 'recalled', 'true'],
      ['P2', 'wrong', 'true'],
      ['P3', 'unknown', 'true'],
      ['P4', 'missing', 'false'],
      ['P5', 'recalled', 'false'],
    ];
    for (const [index, [label, outcome, inContext]] of expected.entries()) {
      const row = rows.nth(index);
      await expect(row).toHaveAttribute('data-label', label!);
      await expect(row).toHaveAttribute('data-outcome', outcome!);
      await expect(row).toHaveAttribute('data-in-context', inContext!);
      await expect(row.locator('td').last()).toHaveText(outcome === 'recalled' ? '✓' : '✗');
    }
    await expect(rows.nth(3)).toContainText('no: lost in the compaction');
    await expect(page.getByTestId('probe-call')).toHaveCount(2);
    await expect(page.getByTestId('probe-cost')).toContainText('$');

    // What the mock received: the probe's summariser saw the five planted facts, labelled as
    // probes; the question carried the compacted context and the labels, with the tools its tool
    // calls need defined and a tool choice of none (the mock, like the API, refuses tool blocks
    // without tool definitions).
    const shown = new Map<string, string>();
    for (let index = 0; index < 5; index += 1) {
      const row = rows.nth(index);
      const value = (await row.getAttribute('data-value')) ?? '';
      expect(value).toMatch(/^[a-z]+-[a-z]+-\d{4}$/);
      await expect(row.locator('th')).toContainText(value);
      shown.set((await row.getAttribute('data-label'))!, value);
    }
    const calls = (await mock.requests(request)).filter((recorded) => recorded.path === '/v1/messages');
    expect(calls).toHaveLength(3);
    const summaryBody = JSON.stringify(calls[1]!.body);
    expect(summaryBody).toContain('[Context Lab probe]');
    for (const [label, value] of shown) expect(summaryBody).toContain(`${label} = \\"${value}\\"`);
    const question = calls[2]!.body as {
      messages: Array<{ content: unknown }>;
      tools?: unknown[];
      tool_choice?: unknown;
    };
    expect(question.tool_choice).toEqual({ type: 'none' });
    expect(question.tools?.length ?? 0).toBeGreaterThan(0);
    const asked = JSON.stringify(question.messages.at(-1)!.content);
    expect(asked).toContain(QUESTION);
    for (const label of shown.keys()) expect(asked).toContain(`${label}: <value>`);
    expect(JSON.stringify(question.messages)).toContain(shown.get('P1')!);
    expect(JSON.stringify(question.messages)).not.toContain(shown.get('P4')!);

    await panel.scrollIntoViewIfNeeded();
    await panel.screenshot({ path: `${SCREENS}/probe-after.png` });

    // The two billed calls are in the Usage panel, labelled as probe.
    await page.getByTestId('tab-usage').click();
    await expect(page.getByTestId('usage-total-probes-cost')).toContainText('$');
    await expect(page.getByTestId('usage-turns').locator('tr[data-probe]')).toHaveCount(2);
    await page.screenshot({ path: `${SCREENS}/probe-usage.png` });
    expect(errors).toEqual([]);
  });
});
