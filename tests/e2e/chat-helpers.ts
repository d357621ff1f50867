import { expect, type APIRequestContext, type Page, type Route } from '@playwright/test';
import type { MockScriptStep, RecordedRequest } from '../mock-provider/mock-provider-server.ts';
import { MOCK_PROVIDER_PORT } from './playwright.config.ts';
import { openLab } from './lab-helpers.ts';

export const MOCK_URL = `http://127.0.0.1:${MOCK_PROVIDER_PORT}`;
export const MOCK_HOST = `127.0.0.1:${MOCK_PROVIDER_PORT}`;
export const API_KEY = 'sk-ant-e2e-chat-key-7f3a9c';
/** Priced in the 2026-04 snapshot ($3 / $15 / $0.30 / $3.75 per million). */
export const CLAUDE_MODEL = 'claude-sonnet-4-20250514';
/** Long enough for the prompt cache's 1,024-token minimum prefix on the first breakpoint. */
export const LONG_SYSTEM_PROMPT =
  'You are a meticulous assistant for a billing platform. Follow the house style: short answers, exact numbers, ' +
  'no speculation, cite the module you looked at, and never invent data. '.repeat(30);

export const mock = {
  reset: (request: APIRequestContext) => request.post(`${MOCK_URL}/__reset`),
  script: (request: APIRequestContext, steps: MockScriptStep[]) =>
    request.post(`${MOCK_URL}/__script`, { data: steps }),
  configure: (request: APIRequestContext, config: Record<string, unknown>) =>
    request.post(`${MOCK_URL}/__config`, { data: config }),
  async requests(request: APIRequestContext): Promise<RecordedRequest[]> {
    return (await (await request.get(`${MOCK_URL}/__requests`)).json()) as RecordedRequest[];
  },
};

/** Generation requests the mock saw, split into chat turns (they offer tools) and summary calls. */
export async function generationRequests(
  request: APIRequestContext,
): Promise<{ chat: Array<Record<string, unknown>>; summaries: Array<Record<string, unknown>> }> {
  const bodies = (await mock.requests(request))
    .filter((recorded) => recorded.path === '/v1/messages')
    .map((recorded) => recorded.body as Record<string, unknown>);
  const offersTools = (body: Record<string, unknown>): boolean =>
    Array.isArray(body.tools) && body.tools.length > 0;
  return { chat: bodies.filter(offersTools), summaries: bodies.filter((body) => !offersTools(body)) };
}

export interface ConnectOptions {
  model?: string;
  /** The window the app assumes (the provider tab's override). */
  contextWindow?: number;
  systemPrompt?: string;
  maxOutputTokens?: number;
  promptCaching?: boolean;
}

/** Opens the app, points the Anthropic provider at the mock with a key, and opens the chat tab. */
export async function connectChatToMock(page: Page, options: ConnectOptions = {}): Promise<void> {
  await openLab(page);
  await page.getByTestId('tab-provider').click();
  await page.getByTestId('setting-base-url').fill(MOCK_URL);
  await page.getByTestId('setting-base-url').press('Enter');
  await page.getByTestId('setting-model').fill(options.model ?? CLAUDE_MODEL);
  await page.getByTestId('setting-model').press('Enter');
  if (options.contextWindow !== undefined) {
    await page.getByTestId('setting-context-window').fill(String(options.contextWindow));
    await page.getByTestId('setting-context-window').press('Enter');
  }
  await page.getByTestId('api-key').fill(API_KEY);
  await page.getByTestId('api-key-save').click();
  await expect(page.getByTestId('api-key-hint')).toBeVisible();
  await openChat(page);
  if (
    options.systemPrompt !== undefined ||
    options.maxOutputTokens !== undefined ||
    options.promptCaching !== undefined
  ) {
    await setChatOptions(page, options);
  }
}

export async function openChat(page: Page): Promise<void> {
  await page.getByTestId('tab-chat').click();
  await expect(page.getByTestId('chat-panel')).toBeVisible();
}

export async function setChatOptions(page: Page, options: ConnectOptions): Promise<void> {
  const panel = page.getByTestId('chat-options');
  if (!(await panel.isVisible())) await page.getByRole('button', { name: 'Options' }).click();
  if (options.systemPrompt !== undefined) {
    await page.getByTestId('chat-setting-system-prompt').fill(options.systemPrompt);
    await page.getByTestId('chat-setting-system-prompt').blur();
  }
  if (options.maxOutputTokens !== undefined) {
    await page.getByTestId('chat-setting-max-tokens').fill(String(options.maxOutputTokens));
    await page.getByTestId('chat-setting-max-tokens').press('Enter');
  }
  if (options.promptCaching !== undefined)
    await page.getByTestId('chat-setting-caching').setChecked(options.promptCaching);
}

/** Sends one message and waits until the turn is over (the composer shows Send again). */
export async function sendChat(page: Page, text: string, timeout = 30_000): Promise<void> {
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('chat-send').click();
  await expect(page.getByTestId('chat-status')).toHaveAttribute('data-status', 'idle', { timeout });
}

export async function usageAttribute(page: Page, name: string): Promise<number> {
  return Number(await page.getByTestId('chat-usage').getAttribute(`data-${name}`));
}

/**
 * Queues a mock step just before each chat request leaves the browser, decided from the
 * request body; summary calls (no tools) get `summaryStep`. The step is queued by the test
 * (Node side) while the browser request waits, so nothing else can take it.
 */
export async function routeMockSteps(
  page: Page,
  request: APIRequestContext,
  decide: (body: { tools?: unknown[]; messages: unknown[] }, isSummary: boolean) => MockScriptStep | null,
): Promise<void> {
  await page.route(`${MOCK_URL}/v1/messages`, async (route: Route) => {
    const text = route.request().postData();
    if (route.request().method() === 'POST' && text) {
      const body = JSON.parse(text) as { tools?: unknown[]; messages: unknown[] };
      const step = decide(body, !Array.isArray(body.tools) || body.tools.length === 0);
      if (step) await mock.script(request, [step]);
    }
    await route.continue();
  });
}
