import { mkdirSync } from 'node:fs';
import { expect, test, type Page, type Route } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';
import { CLAUDE_MODEL, connectChatToMock, mock, MOCK_URL, openChat, sendChat } from './chat-helpers.ts';
import { messageCount } from './lab-helpers.ts';

/**
 * Issue 16, finding 1 (ROUND2.md §6): the workspace shows what the user is working on. While
 * chatting, the map, the list, the plan and the after lane show the live conversation's request
 * context at the window the chat compacts at, and the compaction happens where the map said.
 *
 * `LIVEMAP_SCREENS=DIR` also saves the map before and after the compaction there.
 */

const WINDOW_TOKENS = 32_000;
/** hermes-2026-07 on a 32K window: the 64,000-token minimum swallows the window, so 85% of it. */
const TRIGGER_TOKENS = Math.trunc(WINDOW_TOKENS * 0.85);
const SCREENS = process.env.LIVEMAP_SCREENS ?? null;

test.describe.configure({ mode: 'serial' });

test.beforeEach(async ({ request }) => {
  await mock.reset(request);
});

/** What the workspace showed while one request to the provider waited. */
interface Sighting {
  readonly kind: 'chat' | 'summary';
  readonly turn: number;
  /** Messages of the request context on the map (system prompt included). */
  readonly messages: number;
  /** The map's total: the request context drawn in the count the chat decides on. */
  readonly total: number;
  /** The count the loop decides on (the gauge), the trigger and whether the map says it fires. */
  readonly tokens: number;
  readonly threshold: number;
  readonly fires: boolean;
}

async function sight(page: Page, kind: Sighting['kind'], turn: number): Promise<Sighting> {
  const gauge = page.getByTestId('context-gauge');
  const map = page.getByTestId('context-map');
  return {
    kind,
    turn,
    messages: Number(await map.getAttribute('data-messages')),
    total: Number(await map.getAttribute('data-total-tokens')),
    tokens: Number(await gauge.getAttribute('data-tokens')),
    threshold: Number(await gauge.getAttribute('data-threshold')),
    fires: (await map.getAttribute('data-fires')) === 'true',
  };
}

async function screenshot(page: Page, name: string): Promise<void> {
  const path = SCREENS ? `${SCREENS}/${name}` : test.info().outputPath(name);
  if (SCREENS) mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path });
}

test('while chatting, the map shows the live session and the compaction happens where it said', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const errors = collectConsoleErrors(page);
  const sightings: Sighting[] = [];
  let turn = 0;
  let screenshotBefore = false;
  // Each request waits at the browser's edge until the workspace shows what it sends: a chat
  // request when the map holds its messages (+ the system prompt), a summary call once the map
  // says the compaction fires. What the map said then is what the loop was deciding on.
  await page.route(`${MOCK_URL}/v1/messages`, async (route: Route) => {
    const body = JSON.parse(route.request().postData() ?? '{}') as {
      tools?: unknown[];
      messages?: unknown[];
    };
    const isSummary = !Array.isArray(body.tools) || body.tools.length === 0;
    const map = page.getByTestId('context-map');
    try {
      if (isSummary) {
        await expect(map).toHaveAttribute('data-fires', 'true', { timeout: 15_000 });
        sightings.push(await sight(page, 'summary', turn));
        if (!screenshotBefore) {
          screenshotBefore = true;
          await screenshot(page, 'livemap-before-compaction.png');
        }
      } else {
        await expect(map).toHaveAttribute('data-messages', String((body.messages?.length ?? 0) + 1), {
          timeout: 15_000,
        });
        sightings.push(await sight(page, 'chat', turn));
      }
    } finally {
      // A map that never showed it fails the comparisons below, not a hung request.
      await route.continue();
    }
  });

  await connectChatToMock(page, { contextWindow: WINDOW_TOKENS, maxOutputTokens: 1024 });
  await page.getByTestId('tab-plan').click();
  await page.getByTestId('setting-preset').selectOption('hermes-2026-07');
  await openChat(page);
  const compactions = page.getByTestId('chat-compaction');
  while ((await compactions.count()) === 0 && turn < 45) {
    turn += 1;
    await sendChat(
      page,
      `Turn ${turn}: review ledger module ${turn}. ${'The module writes ledger rows. '.repeat(120)}`,
    );
    // After each turn: the workspace is the live session, its list the conversation + system prompt.
    const chatMessages = Number(await page.getByTestId('chat-panel').getAttribute('data-messages'));
    await expect(page.getByTestId('message-count')).toHaveText(String(chatMessages + 1));
    await expect(page.getByTestId('context-map')).toHaveAttribute('data-messages', String(chatMessages + 1));
    if (turn === 1) {
      await expect(page.getByTestId('session-source')).toHaveText(`live chat session · with ${CLAUDE_MODEL}`);
      await expect(page.getByTestId('session-title')).toHaveText(/^Turn 1: review ledger module 1/);
    }
  }
  await expect(compactions).toHaveCount(1);
  const compactionTurn = turn;
  console.log(
    `live map: compacted in turn ${compactionTurn}; ${sightings
      .filter((seen) => seen.turn >= compactionTurn - 1)
      .map(
        (seen) =>
          `${seen.kind}@${seen.turn} ${seen.tokens} (map ${seen.total})/${seen.threshold}${seen.fires ? ' fires' : ''}`,
      )
      .join(', ')}`,
  );

  // One window: the chat's (32K, set in the Provider tab), and the trigger the chat compacts at.
  const gauge = page.getByTestId('context-gauge');
  await expect(gauge).toHaveAttribute('data-window', String(WINDOW_TOKENS));
  await expect(gauge).toHaveAttribute('data-threshold', String(TRIGGER_TOKENS));
  await expect(page.getByTestId('map-marker-threshold')).toHaveAttribute(
    'data-tokens',
    String(TRIGGER_TOKENS),
  );

  // Every chat request before the compaction: the map showed it below the trigger, not firing.
  const summaryAt = sightings.findIndex((seen) => seen.kind === 'summary');
  expect(summaryAt).toBeGreaterThan(0);
  const before = sightings.slice(0, summaryAt);
  expect(before.length).toBe(compactionTurn - 1);
  for (const seen of before) {
    expect(seen, `turn ${seen.turn}`).toMatchObject({
      kind: 'chat',
      fires: false,
      threshold: TRIGGER_TOKENS,
    });
    expect(seen.tokens, `turn ${seen.turn}`).toBeLessThan(TRIGGER_TOKENS);
    expect(seen.total, `turn ${seen.turn}`).toBeLessThan(TRIGGER_TOKENS);
  }
  // The turn whose request first crossed the trigger on the map is the one that compacted,
  // before its request went out.
  const atCompaction = sightings[summaryAt]!;
  expect(atCompaction).toMatchObject({ turn: compactionTurn, fires: true, threshold: TRIGGER_TOKENS });
  expect(atCompaction.tokens).toBeGreaterThanOrEqual(TRIGGER_TOKENS);
  expect(atCompaction.total).toBeGreaterThanOrEqual(TRIGGER_TOKENS);
  await expect(page.getByTestId('context-map')).toHaveAttribute('data-token-basis', 'rough');
  expect(atCompaction.messages).toBe(before.at(-1)!.messages + 2);
  // Then the request went out compacted, and the map showed that: under the trigger, fewer messages.
  const afterCompaction = sightings[summaryAt + 1]!;
  expect(afterCompaction).toMatchObject({ kind: 'chat', turn: compactionTurn, fires: false });
  expect(afterCompaction.tokens).toBeLessThan(TRIGGER_TOKENS);
  expect(afterCompaction.messages).toBeLessThan(atCompaction.messages);
  expect(sightings.filter((seen) => seen.kind === 'summary')).toHaveLength(1);

  // The chat's own figures agree: what the compaction started from crossed the trigger.
  const card = compactions.first();
  expect(Number(await card.getAttribute('data-tokens-before'))).toBeGreaterThanOrEqual(TRIGGER_TOKENS - 16);

  // After the turn: the live session with its after lane, the plan saying how the loop decides.
  const chatMessages = Number(await page.getByTestId('chat-panel').getAttribute('data-messages'));
  expect(await messageCount(page)).toBe(chatMessages + 1);
  const afterLane = page.getByTestId('after-lane');
  await expect(afterLane).toBeVisible();
  expect(Number(await afterLane.getAttribute('data-tokens'))).toBeGreaterThan(0);
  await expect(afterLane).toHaveAttribute('data-fires', 'false');
  expect(Number(await gauge.getAttribute('data-tokens'))).toBeLessThan(TRIGGER_TOKENS);
  await screenshot(page, 'livemap-after-compaction.png');
  await page.getByTestId('tab-plan').click();
  await expect(page.getByTestId('plan-explanation')).toContainText(
    'In the chat, the loop decides on this count before every request',
  );
  await expect(page.getByTestId('plan-verdict')).toHaveText(
    'Compaction would not fire before the next request.',
  );
  await page.getByTestId('plan-explanation').scrollIntoViewIfNeeded();
  await screenshot(page, 'livemap-after-compaction-plan.png');
  expect(errors).toEqual([]);
});

test('a chat session opened from Sessions is shown at its model’s window, as the chat showed it', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  await connectChatToMock(page, { contextWindow: WINDOW_TOKENS });
  await sendChat(page, 'Where are ledger rows written?');
  await sendChat(page, 'And who reads them?');
  const gauge = page.getByTestId('context-gauge');
  await expect(page.getByTestId('session-source')).toHaveText(`live chat session · with ${CLAUDE_MODEL}`);
  await expect(page.getByTestId('message-count')).toHaveText('5');

  // The user leaves the chat for the demo: the map stops following it, until they chat again.
  await page.getByTestId('show-demo').click();
  await expect(page.getByTestId('session-source')).toHaveText(/^built-in demo/);
  await sendChat(page, 'Still following?');
  await expect(page.getByTestId('session-source')).toHaveText(`live chat session · with ${CLAUDE_MODEL}`);
  await expect(page.getByTestId('message-count')).toHaveText('7');
  await expect(page.getByTestId('context-map')).toHaveAttribute('data-messages', '7');
  const liveTokens = await gauge.getAttribute('data-tokens');
  await page.getByTestId('show-demo').click();
  await expect(page.getByTestId('session-source')).toHaveText(/^built-in demo/);

  await page.getByTestId('tab-sessions').click();
  const entry = page.getByTestId('conversation').filter({ hasText: 'Where are ledger rows written?' });
  await entry.getByRole('button').first().click();
  await page.getByTestId('lineage-view').getByTestId('segment-open').last().click();
  await expect(page.getByTestId('session-source')).toHaveText(`stored chat session · with ${CLAUDE_MODEL}`);
  // Its request context (system prompt + 6 messages), at the model's 32K window, not 200K.
  await expect(page.getByTestId('message-count')).toHaveText('7');
  await expect(gauge).toHaveAttribute('data-window', String(WINDOW_TOKENS));
  await expect(page.getByTestId('context-map')).toHaveAttribute('data-messages', '7');
  // The same request context as the live chat showed: the same count.
  await expect(gauge).toHaveAttribute('data-tokens', liveTokens!);

  // Resume continues it in the chat, and the workspace shows it live again.
  await page.getByTestId('conversation-resume').click();
  await expect(page.getByTestId('chat-panel')).toBeVisible();
  await expect(page.getByTestId('session-source')).toHaveText(`live chat session · with ${CLAUDE_MODEL}`);
  await expect(page.getByTestId('message-count')).toHaveText('7');
  expect(errors).toEqual([]);
});
