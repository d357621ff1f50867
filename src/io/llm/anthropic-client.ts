import Anthropic, { APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type {
  MessageCountTokensParams,
  MessageCreateParamsNonStreaming,
  MessageCreateParamsStreaming,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { Preset } from '../../core/presets/preset.ts';
import {
  anthropicStreamMessage,
  applyAnthropicStreamEvent,
  createAnthropicStreamState,
} from '../../core/providers/anthropic/anthropic-stream-accumulator.ts';
import { fromAnthropicResponse } from '../../core/providers/anthropic/from-anthropic-response.ts';
import { toAnthropicRequest } from '../../core/providers/anthropic/to-anthropic-request.ts';
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
import { DEFAULT_BASE_URLS } from './provider-settings.ts';
import { toChatResponse, type UsageRoute } from './to-chat-response.ts';

const ANTHROPIC_USAGE_ROUTE: UsageRoute = { provider: 'anthropic', apiMode: 'anthropic_messages' };

export interface AnthropicClientOptions {
  apiKey: string;
  /** The API origin; a trailing `/` or `/v1` is removed because the SDK appends `/v1/messages`. */
  baseUrl: string;
  model: string;
  preset: Preset;
  /** Injected for tests; the browser's `fetch` otherwise. */
  fetch?: typeof fetch;
  /** Whether the browser believes it is online; `navigator.onLine` by default. */
  isOnline?: OnlineProbe;
}

/**
 * Anthropic Messages over the official SDK, from the browser: `dangerouslyAllowBrowser` is
 * always set (inside a Worker the SDK would otherwise skip the browser-access header, stack.md
 * §8.5), the SDK's own retries are off (`retryWithBackoff` and overflow recovery decide), and
 * its logger is silenced so nothing it logs can carry request details.
 */
export function createAnthropicClient(options: AnthropicClientOptions): ChatClient {
  const baseUrl = normalizeAnthropicBaseUrl(options.baseUrl);
  const sdk = new Anthropic({
    apiKey: options.apiKey,
    baseURL: baseUrl,
    dangerouslyAllowBrowser: true,
    maxRetries: 0,
    logLevel: 'off',
    openTelemetry: false,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });

  const callContext = (
    request: Pick<ChatRequest, 'model' | 'messages' | 'errorContext'>,
  ): LlmCallContext => ({
    provider: 'anthropic',
    hermesProvider: 'anthropic',
    model: request.model ?? options.model,
    preset: options.preset,
    apiKey: options.apiKey,
    approxTokens: request.errorContext?.approxTokens,
    contextLength: request.errorContext?.contextLength,
    numMessages: request.messages.length,
  });

  async function send(
    request: ChatRequest,
    handlers?: ChatStreamHandlers,
    signal?: AbortSignal,
  ): Promise<ChatResponse> {
    const call = callContext(request);
    const stream = request.stream ?? true;
    const { body, warnings } = toAnthropicRequest(request.messages, {
      model: call.model,
      maxTokens: request.maxTokens,
      ...(request.systemPrompt !== undefined ? { systemPrompt: request.systemPrompt } : {}),
      ...(request.tools !== undefined ? { tools: request.tools } : {}),
      ...(request.toolChoice !== undefined ? { toolChoice: request.toolChoice } : {}),
      stream,
      cacheMarkersApplied: request.cacheMarkersApplied ?? false,
    });
    try {
      if (!stream) {
        const message = await sdk.messages.create(body as unknown as MessageCreateParamsNonStreaming, {
          signal: signal ?? null,
        });
        return toChatResponse(
          fromAnthropicResponse(message),
          warnings,
          call,
          ANTHROPIC_USAGE_ROUTE,
          request.messages,
        );
      }
      const events = await sdk.messages.create(body as unknown as MessageCreateParamsStreaming, {
        signal: signal ?? null,
      });
      const state = createAnthropicStreamState();
      let started = false;
      try {
        for await (const event of events) {
          started = true;
          const delta = applyAnthropicStreamEvent(state, event);
          if (delta) dispatchDelta(delta, handlers);
        }
      } catch (error) {
        if (signal?.aborted || error instanceof APIError) throw error;
        // The body broke off under us (connection reset): the reply is incomplete.
        throw createLlmError(
          {
            kind: started ? 'stream-cut' : 'network',
            message: `Stream broken before the reply was complete: ${describe(error)}`,
          },
          call,
        );
      }
      // The SDK ends the iteration quietly when our signal aborts it.
      if (signal?.aborted) throw signal.reason;
      if (!state.complete) {
        throw createLlmError(
          { kind: 'stream-cut', message: 'Stream ended before message_stop: the reply is incomplete' },
          call,
        );
      }
      return toChatResponse(
        fromAnthropicResponse(anthropicStreamMessage(state)),
        [...warnings, ...state.warnings],
        call,
        ANTHROPIC_USAGE_ROUTE,
        request.messages,
      );
    } catch (error) {
      throw toLlmError(error, call, signal, options.isOnline);
    }
  }

  async function countTokens(
    request: Omit<ChatRequest, 'maxTokens' | 'stream'>,
    signal?: AbortSignal,
  ): Promise<number> {
    const call = callContext(request);
    const { body } = toAnthropicRequest(request.messages, {
      model: call.model,
      maxTokens: 1,
      ...(request.systemPrompt !== undefined ? { systemPrompt: request.systemPrompt } : {}),
      ...(request.tools !== undefined ? { tools: request.tools } : {}),
      ...(request.toolChoice !== undefined ? { toolChoice: request.toolChoice } : {}),
      stream: false,
      cacheMarkersApplied: request.cacheMarkersApplied ?? false,
    });
    const { max_tokens: _maxTokens, stream: _stream, ...params } = body;
    try {
      const counted = await sdk.messages.countTokens(params as unknown as MessageCountTokensParams, {
        signal: signal ?? null,
      });
      return counted.input_tokens;
    } catch (error) {
      throw toLlmError(error, call, signal, options.isOnline);
    }
  }

  return { provider: 'anthropic', model: options.model, send, countTokens };
}

export function normalizeAnthropicBaseUrl(baseUrl: string): string {
  const trimmed = (baseUrl.trim() || DEFAULT_BASE_URLS.anthropic).replace(/\/+$/, '');
  return trimmed.replace(/\/v1$/, '');
}

/** SDK errors as `LlmError`s: status, body and headers kept, the kind from the SDK's class. */
function toLlmError(
  error: unknown,
  call: LlmCallContext,
  signal: AbortSignal | undefined,
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
    if (error.status === undefined) {
      // No status: either no answer at all, or an `error` event in the middle of a stream,
      // which gets the status the same error has when it comes before the stream starts.
      if (error.error === undefined || error.error === null)
        return networkFailure(connectionFailureDetail(error), call, isOnline);
      return createLlmError(
        {
          kind: 'http',
          message: error.message,
          status: statusOfErrorType(error.type),
          body: error.error,
          headers: headersToRecord(error.headers),
        },
        call,
      );
    }
    return createLlmError(
      {
        kind: 'http',
        message: error.message,
        status: error.status,
        body: error.error,
        headers: headersToRecord(error.headers),
      },
      call,
    );
  }
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

/**
 * HTTP status by Anthropic error type.
 *
 * @see https://docs.anthropic.com/en/api/errors
 */
const STATUS_BY_ERROR_TYPE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

function statusOfErrorType(type: string | null): number | undefined {
  return type === null ? undefined : STATUS_BY_ERROR_TYPE[type];
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
