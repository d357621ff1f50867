/**
 * Mock LLM provider for tests: speaks the Anthropic Messages API and the OpenAI Chat
 * Completions API on one port, with a simulated prompt cache, a context window, and scripted
 * failures. TypeScript (it reuses the app's cache simulator from src/core), so run it with tsx:
 *
 *   npx tsx tests/mock-provider/mock-provider-server.ts --port 8787 [--host 127.0.0.1] [--context-window 200000]
 *
 * or import it: `const mock = await startMockProvider({ port: 0 })` (port 0 picks a free port).
 * For Playwright, a `webServer` entry with that command and `url: 'http://127.0.0.1:8787/health'`.
 *
 * Endpoints
 *   POST /v1/messages                Anthropic Messages, JSON or SSE (`stream: true`), real event order incl. `ping`
 *   POST /v1/messages/count_tokens   Anthropic token counting (never consumes a script step)
 *   POST /v1/chat/completions        OpenAI Chat Completions, JSON or SSE (`data:` chunks, `[DONE]`,
 *                                    a usage chunk when `stream_options.include_usage`); `/chat/completions` too
 *   GET  /health                     200 {"ok":true}
 *   POST /__script                   JSON list of steps for the next generation requests (see mock-script.ts)
 *   GET  /__requests                 the recorded API requests: method, path, headers, body
 *   POST /__reset                    clears requests, script, cache, clock offset and config changes
 *   POST /__config                   {contextWindow?, enforceOutputCap?, requiredApiKey?, openAiCacheUsage?}
 *   POST /__clock                    {advanceMs}: moves the mock's clock (cache TTLs) forward
 *
 * Tokens are ceil(characters / 4) of each block's JSON (mock-token-count.ts). The key is read
 * from `x-api-key` or `Authorization: Bearer` (the Anthropic SDK 1.12 sends the latter). CORS:
 * OPTIONS answers 204; every answer allows the request's Origin and echoes the requested
 * headers; `retry-after` and the request ids are exposed to the page.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import type { PromptCacheState } from '#core/caching/simulate-prompt-cache.ts';
import { handleAnthropicCountTokens, handleAnthropicMessages } from './mock-anthropic-route.ts';
import type { MockContext, MockProviderConfig, RecordedRequest, RouteHandler } from './mock-context.ts';
import { sendJson } from './mock-http.ts';
import { handleOpenAiChatCompletions } from './mock-openai-route.ts';
import { isMockScriptStep, type MockScriptStep } from './mock-script.ts';

export type { MockScriptStep } from './mock-script.ts';
export type { MockProviderConfig, RecordedRequest } from './mock-context.ts';

export interface MockProviderOptions {
  /** 0 (the default when imported) picks a free port. */
  port?: number;
  host?: string;
  contextWindow?: number;
  enforceOutputCap?: boolean;
  requiredApiKey?: string | null;
  openAiCacheUsage?: MockProviderConfig['openAiCacheUsage'];
  /** The clock for cache TTLs; the default is the wall clock plus any `/__clock` advance. */
  nowMs?: () => number;
}

export interface MockProvider {
  /** e.g. `http://127.0.0.1:41234` (no trailing slash, no `/v1`). */
  readonly url: string;
  readonly port: number;
  readonly requests: RecordedRequest[];
  script(steps: MockScriptStep[]): void;
  configure(config: Partial<MockProviderConfig>): void;
  advanceClock(milliseconds: number): void;
  reset(): void;
  close(): Promise<void>;
}

const DEFAULT_CONTEXT_WINDOW_TOKENS = 200_000;
const EXPOSED_HEADERS = 'retry-after, retry-after-ms, request-id, x-request-id, content-type';

const ROUTES: Record<string, RouteHandler> = {
  '/v1/messages': handleAnthropicMessages,
  '/v1/messages/count_tokens': handleAnthropicCountTokens,
  '/v1/chat/completions': handleOpenAiChatCompletions,
  '/chat/completions': handleOpenAiChatCompletions,
};

export async function startMockProvider(options: MockProviderOptions = {}): Promise<MockProvider> {
  const initialConfig: MockProviderConfig = {
    contextWindow: options.contextWindow ?? DEFAULT_CONTEXT_WINDOW_TOKENS,
    enforceOutputCap: options.enforceOutputCap ?? true,
    requiredApiKey: options.requiredApiKey ?? null,
    openAiCacheUsage: options.openAiCacheUsage ?? 'prompt-tokens-details',
  };
  const requests: RecordedRequest[] = [];
  let steps: MockScriptStep[] = [];
  let clockOffsetMs = 0;
  let idCounter = 0;
  const context: MockContext = {
    config: { ...initialConfig },
    nowMs: () => (options.nowMs ?? Date.now)() + clockOffsetMs,
    nextStep: () => steps.shift(),
    cacheStates: new Map<string, PromptCacheState>(),
    nextId: (prefix) => `${prefix}${String(++idCounter).padStart(4, '0')}`,
    hanging: new Set(),
  };

  const reset = (): void => {
    requests.length = 0;
    steps = [];
    clockOffsetMs = 0;
    context.cacheStates.clear();
    context.config = { ...initialConfig };
    for (const response of context.hanging) response.destroy();
    context.hanging.clear();
  };

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        sendJson(response, 500, { error: { message: `mock provider failed: ${String(error)}` } });
      else response.destroy();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? '/', 'http://mock').pathname;
    setCorsHeaders(request, response);
    if (request.method === 'OPTIONS') {
      response.writeHead(204).end();
      return;
    }
    const text = await readBody(request);
    const body = parseBody(text);

    if (path === '/health') return sendJson(response, 200, { ok: true });
    if (path === '/__requests' && request.method === 'GET') return sendJson(response, 200, requests);
    if (path === '/__reset' && request.method === 'POST') {
      reset();
      return sendJson(response, 200, { ok: true });
    }
    if (path === '/__script' && request.method === 'POST') {
      const list: unknown = Array.isArray(body)
        ? body
        : isRecord(body) && Array.isArray(body.steps)
          ? body.steps
          : null;
      if (!Array.isArray(list) || !list.every(isMockScriptStep)) {
        return sendJson(response, 400, {
          error: { message: 'expected a JSON list of script steps (see mock-script.ts)' },
        });
      }
      steps.push(...list);
      return sendJson(response, 200, { ok: true, queued: steps.length });
    }
    if (path === '/__config' && request.method === 'POST') {
      if (isRecord(body)) context.config = { ...context.config, ...pickConfig(body) };
      return sendJson(response, 200, context.config);
    }
    if (path === '/__clock' && request.method === 'POST') {
      if (isRecord(body) && typeof body.advanceMs === 'number') clockOffsetMs += body.advanceMs;
      return sendJson(response, 200, { nowMs: context.nowMs() });
    }

    const route = ROUTES[path];
    if (!route || request.method !== 'POST') {
      return sendJson(response, 404, {
        type: 'error',
        error: { type: 'not_found_error', message: `Not found: ${request.method} ${path}` },
      });
    }
    requests.push({ method: request.method, path, headers: { ...request.headers }, body });
    const key = apiKeyOf(request);
    const isAnthropic = path.startsWith('/v1/messages');
    if (
      key === null ||
      key === '' ||
      (context.config.requiredApiKey !== null && key !== context.config.requiredApiKey)
    ) {
      return isAnthropic
        ? sendJson(response, 401, {
            type: 'error',
            error: { type: 'authentication_error', message: 'invalid x-api-key' },
          })
        : sendJson(response, 401, {
            error: {
              message: 'Incorrect API key provided.',
              type: 'invalid_request_error',
              param: null,
              code: 'invalid_api_key',
            },
          });
    }
    if (body === undefined || typeof body === 'string') {
      return sendJson(response, 400, {
        type: 'error',
        error: { type: 'invalid_request_error', message: 'The request body is not valid JSON.' },
      });
    }
    route(request, response, body, context);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    requests,
    script: (more) => void steps.push(...more),
    configure: (config) => void (context.config = { ...context.config, ...config }),
    advanceClock: (milliseconds) => void (clockOffsetMs += milliseconds),
    reset,
    close: () => closeServer(server, context),
  };
}

function setCorsHeaders(request: IncomingMessage, response: ServerResponse): void {
  const origin = request.headers.origin;
  response.setHeader('access-control-allow-origin', typeof origin === 'string' ? origin : '*');
  response.setHeader('vary', 'Origin');
  response.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
  // The Anthropic SDK sends many x-stainless-* headers: echoing the request is simplest (stack.md §3).
  const requested = request.headers['access-control-request-headers'];
  response.setHeader('access-control-allow-headers', typeof requested === 'string' ? requested : '*');
  response.setHeader('access-control-expose-headers', EXPOSED_HEADERS);
  response.setHeader('access-control-max-age', '600');
  if (request.headers['access-control-request-private-network'] === 'true') {
    response.setHeader('access-control-allow-private-network', 'true');
  }
}

function apiKeyOf(request: IncomingMessage): string | null {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string') return header;
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string' && /^Bearer\s+/i.test(authorization))
    return authorization.replace(/^Bearer\s+/i, '');
  return null;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function parseBody(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function pickConfig(body: Record<string, unknown>): Partial<MockProviderConfig> {
  const config: Partial<MockProviderConfig> = {};
  if (typeof body.contextWindow === 'number') config.contextWindow = body.contextWindow;
  if (typeof body.enforceOutputCap === 'boolean') config.enforceOutputCap = body.enforceOutputCap;
  if (typeof body.requiredApiKey === 'string' || body.requiredApiKey === null)
    config.requiredApiKey = body.requiredApiKey;
  if (body.openAiCacheUsage === 'prompt-tokens-details' || body.openAiCacheUsage === 'anthropic-fields')
    config.openAiCacheUsage = body.openAiCacheUsage;
  return config;
}

function closeServer(server: Server, context: MockContext): Promise<void> {
  for (const response of context.hanging) response.destroy();
  context.hanging.clear();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

function argumentValue(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

// Run as a program: `npx tsx tests/mock-provider/mock-provider-server.ts --port 8787`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const mock = await startMockProvider({
    port: Number(argumentValue('--port') ?? 8787),
    host: argumentValue('--host') ?? '127.0.0.1',
    ...(argumentValue('--context-window')
      ? { contextWindow: Number(argumentValue('--context-window')) }
      : {}),
  });
  console.log(`mock provider listening on ${mock.url}`);
  const stop = (): void => void mock.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
