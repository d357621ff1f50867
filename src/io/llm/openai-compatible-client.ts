import type { PresetName } from '../../core/presets/preset-name.ts';
import {
  applyChatCompletionStreamData,
  chatCompletionStreamResponse,
  createChatCompletionStreamState,
  type ChatCompletionStreamState,
} from '../../core/providers/openai-compatible/accumulate-chat-completion-chunks.ts';
import { fromOpenAiChatResponse } from '../../core/providers/openai-compatible/from-openai-chat-response.ts';
import { toOpenAiChatRequest } from '../../core/providers/openai-compatible/to-openai-chat-request.ts';
import { createServerSentEventParser } from '../../core/providers/server-sent-event-parser.ts';
import { isPlainObject, safeParseJson } from '../../core/shared/safe-parse-json.ts';
import {
  dispatchDelta,
  type ChatClient,
  type ChatRequest,
  type ChatResponse,
  type ChatStreamHandlers,
} from './chat-client.ts';
import { abortKindOf, createLlmError, headersToRecord, type LlmCallContext } from './create-llm-error.ts';
import { isLlmError, LlmError, redactSecret } from './llm-error.ts';
import { DEFAULT_BASE_URLS, hermesProviderName } from './provider-settings.ts';
import { toChatResponse, type UsageRoute } from './to-chat-response.ts';

export interface OpenAiCompatibleClientOptions {
  apiKey: string;
  /** The base `/chat/completions` is appended to, e.g. `https://openrouter.ai/api/v1`. */
  baseUrl: string;
  model: string;
  preset: PresetName;
  /** OpenRouter's optional app attribution (`HTTP-Referer`, `X-Title`); sent to OpenRouter only. */
  appReferer?: string;
  appTitle?: string;
  /** `max_completion_tokens` for OpenAI's reasoning models; `max_tokens` otherwise. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Injected for tests; the browser's `fetch` otherwise. */
  fetch?: typeof fetch;
}

/**
 * Any OpenAI-compatible Chat Completions endpoint over plain `fetch`, streamed as SSE parsed
 * from `response.body` (stack.md §6). Usage is requested in the stream (`include_usage`).
 */
export function createOpenAiCompatibleClient(options: OpenAiCompatibleClientOptions): ChatClient {
  const baseUrl = (options.baseUrl.trim() || DEFAULT_BASE_URLS['openai-compatible']).replace(/\/+$/, '');
  const hermesProvider = hermesProviderName({ provider: 'openai-compatible', baseUrl });
  const usageRoute: UsageRoute = { provider: hermesProvider, apiMode: 'chat_completions' };
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);

  async function send(
    request: ChatRequest,
    handlers?: ChatStreamHandlers,
    signal?: AbortSignal,
  ): Promise<ChatResponse> {
    const call: LlmCallContext = {
      provider: 'openai-compatible',
      hermesProvider,
      model: request.model ?? options.model,
      preset: options.preset,
      apiKey: options.apiKey,
      approxTokens: request.errorContext?.approxTokens,
      contextLength: request.errorContext?.contextLength,
      numMessages: request.messages.length,
    };
    const stream = request.stream ?? true;
    const { body, warnings } = toOpenAiChatRequest(request.messages, {
      model: call.model,
      maxTokens: request.maxTokens,
      ...(options.maxTokensField ? { maxTokensField: options.maxTokensField } : {}),
      ...(request.systemPrompt !== undefined ? { systemPrompt: request.systemPrompt } : {}),
      ...(request.tools !== undefined ? { tools: request.tools } : {}),
      stream,
      cacheMarkersApplied: request.cacheMarkersApplied ?? false,
    });

    let response: Response;
    try {
      response = await fetchImpl(`${baseUrl}/chat/completions`, {
        method: 'POST',
        headers: requestHeaders(),
        body: JSON.stringify(body),
        signal: signal ?? null,
      });
    } catch (error) {
      throw transportError(error, call, signal, 'network');
    }

    const headers = headersToRecord(response.headers);
    if (!response.ok) {
      const text = await readText(response, call, signal);
      const parsed = safeParseJson(text);
      const errorBody = parsed.ok ? parsed.value : text;
      throw createLlmError(
        {
          kind: 'http',
          status: response.status,
          message: `${response.status} ${bodyMessage(errorBody) ?? (text || response.statusText)}`,
          body: errorBody,
          headers,
        },
        call,
      );
    }
    // Some servers ignore `stream: true` and answer with plain JSON.
    const isEventStream = (headers['content-type'] ?? '').includes('text/event-stream');
    if (!stream || !isEventStream || !response.body) {
      const parsed = safeParseJson(await readText(response, call, signal));
      if (!parsed.ok)
        throw createLlmError(
          { kind: 'invalid-response', message: `Response is not JSON: ${parsed.error.message}`, headers },
          call,
        );
      return toChatResponse(
        fromOpenAiChatResponse(parsed.value),
        warnings,
        call,
        usageRoute,
        request.messages,
      );
    }
    const state = await readEventStream(response.body, handlers, call, signal, headers);
    return toChatResponse(
      fromOpenAiChatResponse(chatCompletionStreamResponse(state)),
      warnings,
      call,
      usageRoute,
      request.messages,
    );
  }

  function requestHeaders(): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      authorization: `Bearer ${options.apiKey}`,
    };
    // Custom headers force a CORS preflight the endpoint must allow: only OpenRouter documents these.
    if (hermesProvider === 'openrouter') {
      if (options.appReferer) headers['http-referer'] = options.appReferer;
      if (options.appTitle) headers['x-title'] = options.appTitle;
    }
    return headers;
  }

  return { provider: 'openai-compatible', model: options.model, send };
}

async function readEventStream(
  body: ReadableStream<Uint8Array>,
  handlers: ChatStreamHandlers | undefined,
  call: LlmCallContext,
  signal: AbortSignal | undefined,
  headers: Record<string, string>,
): Promise<ChatCompletionStreamState> {
  const state = createChatCompletionStreamState();
  const parser = createServerSentEventParser();
  // TS's DOM lib types the decoder's writable side as AllowSharedBufferSource, which fetch bodies are.
  const decoder = new TextDecoderStream() as unknown as ReadableWritablePair<string, Uint8Array>;
  const reader = body.pipeThrough(decoder).getReader();
  const apply = (data: string): void => {
    for (const delta of applyChatCompletionStreamData(state, data)) dispatchDelta(delta, handlers);
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      for (const event of parser.push(value)) apply(event.data);
      if (state.complete || state.error) break;
    }
    for (const event of parser.end()) apply(event.data);
  } catch (error) {
    throw transportError(error, call, signal, 'stream-cut');
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  if (state.error) {
    const status = typeof state.error.code === 'number' ? state.error.code : undefined;
    const message =
      typeof state.error.message === 'string' ? state.error.message : 'error event in the stream';
    throw createLlmError({ kind: 'http', status, message, body: { error: state.error }, headers }, call);
  }
  if (!state.complete) {
    throw createLlmError(
      { kind: 'stream-cut', message: 'Stream ended before [DONE]: the reply is incomplete' },
      call,
    );
  }
  return state;
}

async function readText(
  response: Response,
  call: LlmCallContext,
  signal: AbortSignal | undefined,
): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    throw transportError(error, call, signal, 'network');
  }
}

/** A thrown fetch or read: our abort, or the connection failing (before or during the body). */
function transportError(
  error: unknown,
  call: LlmCallContext,
  signal: AbortSignal | undefined,
  kind: 'network' | 'stream-cut',
): LlmError {
  if (isLlmError(error)) return error;
  if (signal?.aborted) {
    const abortKind = abortKindOf(signal);
    return createLlmError(
      { kind: abortKind, message: abortKind === 'timeout' ? 'Request timed out' : 'Request cancelled' },
      call,
    );
  }
  const detail = error instanceof Error ? error.message : String(error);
  const message =
    kind === 'network'
      ? `Connection error: ${redactSecret(detail, call.apiKey)}`
      : `Stream broken before the reply was complete: ${redactSecret(detail, call.apiKey)}`;
  return createLlmError({ kind, message }, call);
}

function bodyMessage(body: unknown): string | undefined {
  if (!isPlainObject(body)) return undefined;
  if (isPlainObject(body.error) && typeof body.error.message === 'string') return body.error.message;
  return typeof body.message === 'string' ? body.message : undefined;
}
