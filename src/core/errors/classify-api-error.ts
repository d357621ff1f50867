import type { Preset } from '../presets/preset.ts';
import { safeParseJson } from '../shared/safe-parse-json.ts';
import { classifiedErrorFactory, type ClassifiedError } from './classified-error.ts';
import { classifyByStatus, isLargeSession, isRecord, pythonStr } from './classify-by-status.ts';
import { classifyByErrorCode, classifyByMessage } from './classify-by-message.ts';
import {
  containsAny,
  CONTENT_POLICY_BLOCKED_PATTERNS,
  SERVER_DISCONNECT_PATTERNS,
  SSL_CERT_VERIFY_PATTERNS,
  SSL_TRANSIENT_PATTERNS,
  TRANSPORT_ERROR_TYPES,
} from './error-patterns.ts';
import { isReasoningModel } from './reasoning-models.ts';

/** A provider failure as the transport saw it. */
export interface ApiErrorInput {
  /** The exception text (`str(error)`). */
  message: string;
  statusCode: number | null;
  /** The parsed JSON error body, if any. */
  body: unknown;
  /** The exception class name (`RateLimitError`, `ReadTimeout`, …), used by transport heuristics. */
  errorType: string | null;
}

export interface ClassificationContext {
  provider?: string;
  model?: string;
  approxTokens?: number;
  contextLength?: number;
  numMessages?: number;
}

const DEFAULT_CONTEXT_LENGTH = 200_000;

const OS_ERROR_TYPES: ReadonlySet<string> = new Set([
  'OSError',
  'IOError',
  'ConnectionRefusedError',
  'gaierror',
]);
const MESSAGE_LIMIT_CHARS = 500;

/**
 * Hermes' `classify_api_error` (hermes-reference §7.1): a priority pipeline, first match wins —
 * provider-specific patterns, HTTP status, the body's error code, message patterns, SSL,
 * server disconnects, transport types, then `unknown`.
 */
export function classifyApiError(
  error: ApiErrorInput,
  context: ClassificationContext,
  preset: Preset,
): ClassifiedError {
  const extended = preset.errors.catalogue === 'extended';
  const errorType = error.errorType ?? '';
  let statusCode = Number.isInteger(error.statusCode) ? error.statusCode : null;
  if (preset.errors.rateLimitTypeImpliesStatus && statusCode === null && errorType === 'RateLimitError')
    statusCode = 429;
  const body = isRecord(error.body) ? error.body : {};
  const errorCode = extractErrorCode(body, preset);
  const text = combinedErrorText(error.message, body);
  const provider = (context.provider ?? '').trim().toLowerCase();
  const model = (context.model ?? '').trim().toLowerCase();
  const approxTokens = context.approxTokens ?? 0;
  const contextLength = context.contextLength ?? DEFAULT_CONTEXT_LENGTH;
  const numMessages = context.numMessages ?? 0;
  const result = classifiedErrorFactory(statusCode, extractMessage(error.message, body));
  const sizes = { approxTokens, contextLength, numMessages, preset };

  // 1–6: provider-specific patterns, before any status logic.
  if (extended && containsAny(text, CONTENT_POLICY_BLOCKED_PATTERNS)) {
    return result('content_policy_blocked', { retryable: false, shouldFallback: true });
  }
  const thinkingRejected = extended
    ? text.includes('signature') ||
      text.includes('cannot be modified') ||
      text.includes('must remain as they were')
    : text.includes('signature');
  if (statusCode === 400 && text.includes('thinking') && thinkingRejected)
    return result('thinking_signature');
  if (statusCode === 429 && text.includes('extra usage') && text.includes('long context')) {
    return result('long_context_tier', { shouldCompress: true });
  }
  if (extended) {
    if (statusCode === 400 && text.includes('long context beta') && text.includes('not yet available')) {
      return result('oauth_long_context_beta_forbidden');
    }
    const grammar =
      text.includes('error parsing grammar') ||
      text.includes('json-schema-to-grammar') ||
      (text.includes('unable to generate parser') && text.includes('template'));
    if (statusCode === 400 && grammar) return result('llama_cpp_grammar_pattern');
    if (
      text.includes('do not have an active grok subscription') ||
      (text.includes('out of available resources') && text.includes('grok'))
    ) {
      return result('auth', { retryable: false, shouldFallback: true });
    }
  }

  // 7: HTTP status.
  if (statusCode !== null) {
    const classified = classifyByStatus({ statusCode, text, errorCode, body, provider, ...sizes, result });
    if (classified) return classified;
  }

  // 8: structured error code.
  if (errorCode !== '') {
    const classified = classifyByErrorCode(errorCode.toLowerCase(), preset, result);
    if (classified) return classified;
  }

  // 9: message patterns only.
  const byMessage = classifyByMessage(text, preset, result);
  if (byMessage) return byMessage;

  // 10: SSL. Certificate failures are deterministic; alerts are transport hiccups.
  if (extended && containsAny(text, SSL_CERT_VERIFY_PATTERNS))
    return result('ssl_cert_verification', { retryable: false });
  if (containsAny(text, SSL_TRANSIENT_PATTERNS)) return result('timeout');

  // 11: a dropped connection on a large session is more likely an oversized request.
  if (containsAny(text, SERVER_DISCONNECT_PATTERNS) && !statusCode) {
    // Reasoning models think for minutes; a proxy idle-kill is not an overflow.
    if (extended && isReasoningModel(model)) return result('timeout');
    if (isLargeSession(sizes, 0.6, 120_000, 200)) return result('context_overflow', { shouldCompress: true });
    return result('timeout');
  }

  // 12: the stale-call circuit breaker gave up before any network call.
  if (
    extended &&
    errorType === 'RuntimeError' &&
    text.includes('consecutive stale attempts') &&
    text.includes('aborting this call')
  ) {
    return result('timeout', { retryable: false, shouldFallback: true });
  }

  // 13: transport exception types (and Python's OSError family, which Hermes catches by class).
  if (TRANSPORT_ERROR_TYPES.has(errorType) || OS_ERROR_TYPES.has(errorType)) return result('timeout');

  return result('unknown');
}

/**
 * The lowercased text patterns are matched against: the error text, plus the body message and
 * OpenRouter's wrapped upstream message (`error.metadata.raw`) when they add something new.
 */
function combinedErrorText(errorText: string, body: Record<string, unknown>): string {
  const raw = errorText.toLowerCase();
  let bodyMessage = '';
  let upstreamMessage = '';
  const errorObject = body.error;
  if (isRecord(errorObject)) {
    bodyMessage = pythonStr(errorObject.message).toLowerCase();
    const metadata = errorObject.metadata;
    const rawJson = isRecord(metadata) ? metadata.raw : undefined;
    if (typeof rawJson === 'string' && rawJson.trim() !== '') {
      const parsed = safeParseJson(rawJson);
      if (parsed.ok && isRecord(parsed.value) && isRecord(parsed.value.error)) {
        upstreamMessage = pythonStr(parsed.value.error.message).toLowerCase();
      }
    }
  }
  if (bodyMessage === '') bodyMessage = pythonStr(body.message).toLowerCase();
  const parts = [raw];
  if (bodyMessage !== '' && !raw.includes(bodyMessage)) parts.push(bodyMessage);
  if (upstreamMessage !== '' && !raw.includes(upstreamMessage) && !bodyMessage.includes(upstreamMessage)) {
    parts.push(upstreamMessage);
  }
  return parts.join(' ');
}

/** `error.code` or `error.type` (not "400"), a code nested in a JSON `error.message`, else top level. */
function extractErrorCode(body: Record<string, unknown>, preset: Preset): string {
  if (Object.keys(body).length === 0) return '';
  const current = preset.errors.readsNestedErrorCodes;
  const errorObject = body.error;
  if (isRecord(errorObject)) {
    const code = errorObject.code || errorObject.type || '';
    if (typeof code === 'string' && code.trim() !== '' && (!current || code.trim() !== '400'))
      return code.trim();
    const message = errorObject.message;
    if (current && typeof message === 'string' && message.trim().startsWith('{')) {
      const parsed = safeParseJson(message);
      const nested = parsed.ok ? codeFromPayload(parsed.value) : '';
      if (nested !== '') return nested;
    }
  }
  return cleanCode(body.code || body.error_code || '', current);
}

function codeFromPayload(payload: unknown): string {
  if (!isRecord(payload)) return '';
  const errorObject = payload.error;
  if (isRecord(errorObject)) {
    const nested = errorObject.code || errorObject.type || '';
    if (typeof nested === 'string' && nested.trim() !== '' && nested.trim() !== '400') return nested.trim();
  }
  return cleanCode(payload.code || payload.error_code || '', true);
}

function cleanCode(code: unknown, dropBadRequest: boolean): string {
  if (typeof code !== 'string' && typeof code !== 'number') return '';
  const text = String(code).trim();
  return text === '' || (dropBadRequest && text === '400') ? '' : text;
}

/** The body's `error.message`, else its `message`, else the error text; at most 500 characters. */
function extractMessage(errorText: string, body: Record<string, unknown>): string {
  if (Object.keys(body).length > 0) {
    const errorObject = body.error;
    if (
      isRecord(errorObject) &&
      typeof errorObject.message === 'string' &&
      errorObject.message.trim() !== ''
    ) {
      return truncateCodePoints(errorObject.message.trim(), MESSAGE_LIMIT_CHARS);
    }
    if (typeof body.message === 'string' && body.message.trim() !== '') {
      return truncateCodePoints(body.message.trim(), MESSAGE_LIMIT_CHARS);
    }
  }
  return truncateCodePoints(errorText, MESSAGE_LIMIT_CHARS);
}

function truncateCodePoints(text: string, limit: number): string {
  const codePoints = [...text];
  return codePoints.length <= limit ? text : codePoints.slice(0, limit).join('');
}
