import { classifyApiError } from '../../core/errors/classify-api-error.ts';
import type { Preset } from '../../core/presets/preset.ts';
import { parseRetryAfterMs } from '../../core/providers/parse-retry-after-ms.ts';
import { isPlainObject, safeParseJson } from '../../core/shared/safe-parse-json.ts';
import type { ChatProvider } from './chat-client.ts';
import { LlmError, redactSecret, type LlmErrorKind } from './llm-error.ts';

/** Who was called and how big the request was: the classifier's context. */
export interface LlmCallContext {
  provider: ChatProvider;
  /** The provider as Hermes names it (`anthropic`, `openrouter`, `openai`, `custom`): some classifier rules depend on it. */
  hermesProvider: string;
  model: string;
  preset: Preset;
  apiKey: string;
  approxTokens?: number | undefined;
  contextLength?: number | undefined;
  numMessages?: number | undefined;
}

export interface LlmFailure {
  kind: LlmErrorKind;
  message: string;
  status?: number | undefined;
  body?: unknown;
  headers?: Readonly<Record<string, string>> | undefined;
  /** The exception class Hermes would have seen (`APIConnectionError`, `APITimeoutError`, …). */
  errorType?: string | null;
}

/**
 * Classifies a failure with core's `classifyApiError` and wraps it, key redacted everywhere.
 * Cancels, configuration problems and a browser without network get no classification:
 * nothing about the provider was learnt, and no retry or recovery can help.
 */
export function createLlmError(failure: LlmFailure, call: LlmCallContext): LlmError {
  const message = redactSecret(failure.message, call.apiKey);
  const body = redactBody(failure.body, call.apiKey);
  const headers = failure.headers ?? {};
  const classification =
    failure.kind === 'aborted' || failure.kind === 'configuration' || failure.kind === 'offline'
      ? undefined
      : classifyApiError(
          {
            message,
            statusCode: failure.status ?? null,
            body,
            errorType: failure.errorType ?? errorTypeOf(failure.kind),
          },
          {
            provider: call.hermesProvider,
            model: call.model,
            ...(call.approxTokens !== undefined ? { approxTokens: call.approxTokens } : {}),
            ...(call.contextLength !== undefined ? { contextLength: call.contextLength } : {}),
            ...(call.numMessages !== undefined ? { numMessages: call.numMessages } : {}),
          },
          call.preset,
        );
  return new LlmError({
    kind: failure.kind,
    provider: call.provider,
    message,
    status: failure.status,
    body,
    headers,
    retryAfterMs: parseRetryAfterMs(headers, Date.now()),
    classification,
  });
}

/** The exception class names Hermes' transport heuristics know (error-patterns TRANSPORT_ERROR_TYPES). */
function errorTypeOf(kind: LlmErrorKind): string | null {
  switch (kind) {
    case 'network':
      return 'APIConnectionError';
    case 'timeout':
      return 'APITimeoutError';
    case 'stream-cut':
      return 'RemoteProtocolError';
    default:
      return null;
  }
}

function redactBody(body: unknown, apiKey: string): unknown {
  if (typeof body === 'string') return redactSecret(body, apiKey);
  if (!isPlainObject(body) && !Array.isArray(body)) return body;
  const text = JSON.stringify(body);
  const redacted = redactSecret(text, apiKey);
  if (redacted === text) return body;
  const parsed = safeParseJson(redacted);
  return parsed.ok ? parsed.value : redacted;
}

/** A `Headers` object as a plain lower-cased record. */
export function headersToRecord(headers: Headers | undefined | null): Record<string, string> {
  const record: Record<string, string> = {};
  headers?.forEach((value, key) => {
    record[key.toLowerCase()] = value;
  });
  return record;
}

/** Why a signal fired: our deadline (`TimeoutError`) or the caller's cancel. */
export function abortKindOf(signal: AbortSignal | undefined): 'timeout' | 'aborted' {
  const reason: unknown = signal?.reason;
  return typeof reason === 'object' &&
    reason !== null &&
    (reason as { name?: unknown }).name === 'TimeoutError'
    ? 'timeout'
    : 'aborted';
}
