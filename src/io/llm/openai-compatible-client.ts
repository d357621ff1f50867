import OpenAI, { APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions/completions';
import type { Stream } from 'openai/streaming';
import type { Preset } from '../../core/presets/preset.ts';
import {
  applyChatCompletionChunk,
  chatCompletionStreamResponse,
  createChatCompletionStreamState,
  type ChatCompletionStreamState,
} from '../../core/providers/openai-compatible/accumulate-chat-completion-chunks.ts';
import { fromOpenAiChatResponse } from '../../core/providers/openai-compatible/from-openai-chat-response.ts';
import { toOpenAiChatRequest } from '../../core/providers/openai-compatible/to-openai-chat-request.ts';
import { isPlainObject, safeParseJson } from '../../core/shared/safe-parse-json.ts';
import {
  dispatchDelta,
  type ChatClient,
  type ChatRequest,
  type ChatResponse,
  type ChatStreamHandlers,
} from './chat-client.ts';
import { abortKindOf, createLlmError, headersToRecord, type LlmCallContext } from './create-llm-error.ts';
import { isLlmError, LlmError } from './llm-error.ts';
import { networkFailure, type OnlineProbe } from './network-failure.ts';
import { DEFAULT_BASE_URLS, hermesProviderName } from './provider-settings.ts';
import { toChatResponse, type UsageRoute } from './to-chat-response.ts';

export interface OpenAiCompatibleClientOptions {
  apiKey: string;
  /** The base `/chat/completions` is appended to, e.g. `https://openrouter.ai/api/v1`. */
  baseUrl: string;
  model: string;
  preset: Preset;
  /** OpenRouter's optional app attribution (`HTTP-Referer`, `X-Title`); sent to OpenRouter only. */
  appReferer?: string;
  appTitle?: string;
  /** `max_completion_tokens` for OpenAI's reasoning models; `max_tokens` otherwise. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Injected for tests; the browser's `fetch` otherwise. */
  fetch?: typeof fetch;
  /** Whether the browser believes it is online; `navigator.onLine` by default. */
  isOnline?: OnlineProbe;
}

/** The error response's body as the server sent it (the SDK keeps only its `error` member). */
interface ErrorBodyCapture {
  text: string | undefined;
}

/**
 * Any OpenAI-compatible Chat Completions endpoint (OpenAI, OpenRouter, local servers) over the
 * official `openai` SDK, from the browser. As with the Anthropic client: `dangerouslyAllowBrowser`
 * is always set, the SDK's retries are off (`retryWithBackoff` and overflow recovery decide),
 * its logger is silenced, and environment defaults (organisation, project) are never read.
 * Streamed chunks go through core's accumulator, so deltas, tool-call merging and usage
 * (`include_usage`, cached tokens) are the same code the hand-written client used.
 */
export function createOpenAiCompatibleClient(options: OpenAiCompatibleClientOptions): ChatClient {
  const baseUrl = (options.baseUrl.trim() || DEFAULT_BASE_URLS['openai-compatible']).replace(/\/+$/, '');
  const hermesProvider = hermesProviderName({ provider: 'openai-compatible', baseUrl });
  const usageRoute: UsageRoute = { provider: hermesProvider, apiMode: 'chat_completions' };
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const sdk = new OpenAI({
    apiKey: options.apiKey,
    baseURL: baseUrl,
    organization: null,
    project: null,
    webhookSecret: null,
    dangerouslyAllowBrowser: true,
    maxRetries: 0,
    logLevel: 'off',
    fetch: fetchImpl,
    defaultHeaders: attributionHeaders(),
  });

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
      ...(request.toolChoice !== undefined ? { toolChoice: request.toolChoice } : {}),
      stream,
      cacheMarkersApplied: request.cacheMarkersApplied ?? false,
    });
    // One SDK view per call, so concurrent calls never mix up their error bodies.
    const errorBody: ErrorBodyCapture = { text: undefined };
    const calling = sdk.withOptions({ fetch: capturingErrorBodies(fetchImpl, errorBody) });
    const requestOptions = { signal: signal ?? null };
    try {
      // The body is the app's own wire shape (envelope cache markers, reasoning replay), a
      // superset of the SDK's parameter type; the SDK serialises it unchanged.
      const params = body as unknown as ChatCompletionCreateParamsStreaming;
      if (!stream) {
        const response = await calling.chat.completions
          .create({ ...params, stream: false }, requestOptions)
          .asResponse();
        return parseJsonReply(await response.text(), headersToRecord(response.headers));
      }
      const { data: chunks, response } = await calling.chat.completions
        .create(params, requestOptions)
        .withResponse();
      // Some servers ignore `stream: true` and answer with plain JSON.
      if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
        return parseJsonReply(await response.text(), headersToRecord(response.headers));
      }
      const state = await readChunks(chunks, handlers, call, signal);
      return toChatResponse(
        fromOpenAiChatResponse(chatCompletionStreamResponse(state)),
        warnings,
        call,
        usageRoute,
        request.messages,
      );
    } catch (error) {
      throw toLlmError(error, call, signal, errorBody, options.isOnline);
    }

    function parseJsonReply(text: string, headers: Record<string, string>): ChatResponse {
      const parsed = safeParseJson(text);
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
  }

  /** Custom headers force a CORS preflight the endpoint must allow: only OpenRouter documents these. */
  function attributionHeaders(): Record<string, string> {
    const headers: Record<string, string> = {};
    if (hermesProvider === 'openrouter') {
      if (options.appReferer) headers['http-referer'] = options.appReferer;
      if (options.appTitle) headers['x-title'] = options.appTitle;
    }
    return headers;
  }

  return { provider: 'openai-compatible', model: options.model, send };
}

/**
 * The SDK's chunks through core's accumulator. A reply is complete once its choice carries a
 * `finish_reason`: the SDK's iterator swallows `[DONE]`, and its own stream helper
 * (`ChatCompletionStream`) uses the same rule. A break before that is a `stream-cut`.
 */
async function readChunks(
  chunks: Stream<ChatCompletionChunk>,
  handlers: ChatStreamHandlers | undefined,
  call: LlmCallContext,
  signal: AbortSignal | undefined,
): Promise<ChatCompletionStreamState> {
  const state = createChatCompletionStreamState();
  try {
    for await (const chunk of chunks) {
      for (const delta of applyChatCompletionChunk(state, chunk)) dispatchDelta(delta, handlers);
    }
  } catch (error) {
    // An `{error:{…}}` chunk comes as an APIError; our abort is mapped by the caller.
    if (signal?.aborted || error instanceof APIError) throw error;
    if (error instanceof SyntaxError) {
      throw createLlmError(
        {
          kind: 'invalid-response',
          message: `The stream carried a chunk that is not JSON: ${error.message}`,
        },
        call,
      );
    }
    throw createLlmError(
      {
        kind: 'stream-cut',
        message: `Stream broken before the reply was complete: ${describe(error)}`,
      },
      call,
    );
  }
  // The SDK ends the iteration quietly when our signal aborts it.
  if (signal?.aborted) throw signal.reason;
  if (state.finishReason === null) {
    throw createLlmError(
      { kind: 'stream-cut', message: 'Stream ended before its finish_reason: the reply is incomplete' },
      call,
    );
  }
  return state;
}

/** `fetch` that keeps the text of an error response before the SDK reads it. */
function capturingErrorBodies(fetchImpl: typeof fetch, capture: ErrorBodyCapture): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    if (!response.ok)
      capture.text = await response
        .clone()
        .text()
        .catch(() => undefined);
    return response;
  };
}

/** SDK and transport errors as `LlmError`s: the same status, body, message and kind as before the SDK. */
function toLlmError(
  error: unknown,
  call: LlmCallContext,
  signal: AbortSignal | undefined,
  errorBody: ErrorBodyCapture,
  isOnline: OnlineProbe | undefined,
): LlmError {
  if (isLlmError(error)) return error;
  if (signal?.aborted || error instanceof APIUserAbortError) {
    const kind = abortKindOf(signal);
    return createLlmError(
      { kind, message: kind === 'timeout' ? 'Request timed out' : 'Request cancelled' },
      call,
    );
  }
  if (error instanceof APIConnectionTimeoutError)
    return createLlmError({ kind: 'timeout', message: error.message }, call);
  if (isApiError(error)) {
    const headers = headersToRecord(error.headers);
    if (error.status !== undefined) {
      const text = errorBody.text ?? '';
      const parsed = safeParseJson(text);
      const body = parsed.ok ? parsed.value : text;
      return createLlmError(
        {
          kind: 'http',
          status: error.status,
          message: `${error.status} ${bodyMessage(body) ?? (text || error.message)}`,
          body,
          headers,
        },
        call,
      );
    }
    if (isPlainObject(error.error)) {
      // An error chunk in the middle of the stream (OpenRouter and others).
      const detail = error.error;
      return createLlmError(
        {
          kind: 'http',
          status: typeof detail.code === 'number' ? detail.code : undefined,
          message: typeof detail.message === 'string' ? detail.message : 'error event in the stream',
          body: { error: detail },
          headers,
        },
        call,
      );
    }
    // APIConnectionError: no answer at all.
    return networkFailure(connectionFailureDetail(error), call, isOnline);
  }
  if (error instanceof SyntaxError)
    return createLlmError(
      { kind: 'invalid-response', message: `Response is not JSON: ${error.message}` },
      call,
    );
  return networkFailure(describe(error), call, isOnline);
}

/** The SDK says only "Connection error."; the cause (refused, DNS, CORS) is what helps. */
/**
 * `instanceof APIError` narrows to `APIError<any, any, any>`; this keeps the SDK's declared types
 * of the status, headers and body.
 */
const isApiError = (error: unknown): error is APIError => error instanceof APIError;

function connectionFailureDetail(error: APIError): string {
  const cause: unknown = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? cause.message : error.message;
}

function bodyMessage(body: unknown): string | undefined {
  if (!isPlainObject(body)) return undefined;
  if (isPlainObject(body.error) && typeof body.error.message === 'string') return body.error.message;
  return typeof body.message === 'string' ? body.message : undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
