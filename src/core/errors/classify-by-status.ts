import type { Preset } from '../presets/preset.ts';
import type { ClassifiedError, ResultFactory } from './classified-error.ts';
import {
  containsAny,
  EMPTY_PROVIDER_RESPONSE_PATTERNS,
  IMAGE_TOO_LARGE_PATTERNS,
  MODEL_NOT_FOUND_PATTERNS,
  MULTIMODAL_TOOL_CONTENT_PATTERNS,
  OVERLOADED_PATTERNS,
  PROVIDER_POLICY_BLOCKED_PATTERNS,
  RATE_LIMIT_PATTERNS,
  REQUEST_VALIDATION_PATTERNS,
  USAGE_LIMIT_PATTERNS,
  USAGE_LIMIT_TRANSIENT_SIGNALS,
} from './error-patterns.ts';

export interface StatusContext {
  statusCode: number;
  /** Lowercased combined error text. */
  text: string;
  errorCode: string;
  body: Record<string, unknown>;
  provider: string;
  approxTokens: number;
  contextLength: number;
  numMessages: number;
  preset: Preset;
  result: ResultFactory;
}

/** xAI reports Grok credit exhaustion as a 403 with this code. */
const XAI_SPENDING_LIMIT_CODE = 'personal-team-blocked:spending-limit';

/** Step 7 of the pipeline: classification by HTTP status (hermes-reference §7.1 table). */
export function classifyByStatus(context: StatusContext): ClassifiedError | null {
  const { statusCode, text, result, preset } = context;
  const extended = preset.errors.catalogue === 'extended';
  const billing = preset.errors.billingPatterns;
  const overflow = preset.errors.overflowPatterns;
  const billingVerdict = () =>
    result('billing', { retryable: false, shouldRotateCredential: true, shouldFallback: true });

  if (statusCode === 401) {
    return result('auth', { retryable: false, shouldRotateCredential: true, shouldFallback: true });
  }
  if (statusCode === 403) {
    const xaiSpending =
      extended &&
      context.provider === 'xai-oauth' &&
      context.errorCode.toLowerCase() === XAI_SPENDING_LIMIT_CODE;
    const billingWording = text.includes('key limit exceeded') || text.includes('spending limit');
    if (xaiSpending || billingWording || (extended && containsAny(text, billing))) return billingVerdict();
    return result('auth', { retryable: false, shouldFallback: true });
  }
  if (statusCode === 402) {
    if (containsAny(text, USAGE_LIMIT_PATTERNS) && containsAny(text, USAGE_LIMIT_TRANSIENT_SIGNALS)) {
      return result('rate_limit', { shouldRotateCredential: true, shouldFallback: true });
    }
    return billingVerdict();
  }
  if (statusCode === 404) {
    if (extended && containsAny(text, billing)) return billingVerdict();
    if (containsAny(text, PROVIDER_POLICY_BLOCKED_PATTERNS)) {
      return result('provider_policy_blocked', { retryable: false });
    }
    if (containsAny(text, MODEL_NOT_FOUND_PATTERNS)) {
      return result('model_not_found', { retryable: false, shouldFallback: true });
    }
    // A bare 404 is usually a wrong endpoint path, not a missing model: surface it.
    return result('unknown');
  }
  if (statusCode === 413) return result('payload_too_large', { shouldCompress: true });
  if (statusCode === 429) {
    if (extended && containsAny(text, OVERLOADED_PATTERNS)) return result('overloaded');
    if (extended && isOpenRouterUpstreamError(context.body, context.provider)) {
      // The user's key is healthy, the upstream model is throttled: fall back, do not rotate.
      return result('upstream_rate_limit', { shouldFallback: true });
    }
    return result('rate_limit', { shouldRotateCredential: true, shouldFallback: true });
  }
  if (statusCode === 400) return classify400(context, billing, overflow);
  if (statusCode === 500 || statusCode === 502) {
    if (extended) {
      const code = context.errorCode.toLowerCase();
      const validationCode =
        code === 'invalid_request_error' || code === 'unknown_parameter' || code === 'unsupported_parameter';
      if (containsAny(text, REQUEST_VALIDATION_PATTERNS) || validationCode) {
        return result('format_error', { retryable: false, shouldFallback: true });
      }
      const refined = overflowOrEmptyResponse(text, overflow, result);
      if (refined) return refined;
    }
    return result('server_error');
  }
  if (statusCode === 503 || statusCode === 529) {
    if (extended) {
      const refined = overflowOrEmptyResponse(text, overflow, result);
      if (refined) return refined;
    }
    return result('overloaded');
  }
  // 408 is retry-safe by definition; 2026-04 lumped it with the other 4xx.
  if (statusCode === 408 && extended) return result('timeout');
  if (statusCode >= 400 && statusCode < 500)
    return result('format_error', { retryable: false, shouldFallback: true });
  if (statusCode >= 500 && statusCode < 600) return result('server_error');
  return null;
}

function classify400(
  context: StatusContext,
  billing: readonly string[],
  overflow: readonly string[],
): ClassifiedError {
  const { text, result } = context;
  if (context.preset.errors.classifiesMediaAndEncryptedErrors) {
    if (containsAny(text, MULTIMODAL_TOOL_CONTENT_PATTERNS))
      return result('multimodal_tool_content_unsupported');
    if (containsAny(text, IMAGE_TOO_LARGE_PATTERNS)) return result('image_too_large');
    const code = context.errorCode.toLowerCase();
    if (
      code === 'invalid_encrypted_content' ||
      text.includes('invalid_encrypted_content') ||
      (text.includes('encrypted content for item') && text.includes('could not be verified'))
    ) {
      return result('invalid_encrypted_content');
    }
    // Checked before overflow: "Unsupported parameter: 'max_tokens'" contains "max_tokens".
    // The bare `invalid_request_error` code is excluded: OpenAI stamps it on real overflows too.
    const validation = REQUEST_VALIDATION_PATTERNS.filter((pattern) => pattern !== 'invalid_request_error');
    if (containsAny(text, validation) || code === 'unknown_parameter' || code === 'unsupported_parameter') {
      return result('format_error', { retryable: false, shouldFallback: true });
    }
  }
  const refined = context.preset.errors.detectsEmptyResponseAdvisories
    ? overflowOrEmptyResponse(text, overflow, result)
    : containsAny(text, overflow)
      ? result('context_overflow', { shouldCompress: true })
      : null;
  if (refined) return refined;
  if (containsAny(text, PROVIDER_POLICY_BLOCKED_PATTERNS))
    return result('provider_policy_blocked', { retryable: false });
  if (containsAny(text, MODEL_NOT_FOUND_PATTERNS)) {
    return result('model_not_found', { retryable: false, shouldFallback: true });
  }
  if (containsAny(text, RATE_LIMIT_PATTERNS)) {
    return result('rate_limit', { shouldRotateCredential: true, shouldFallback: true });
  }
  if (containsAny(text, billing)) {
    return result('billing', { retryable: false, shouldRotateCredential: true, shouldFallback: true });
  }
  // Anthropic sometimes answers an oversized request with a bare "Error": on a large session,
  // a generic 400 is probably overflow.
  const bodyMessage = bodyErrorMessage(context.body).trim().toLowerCase();
  const isGeneric = [...bodyMessage].length < 30 || bodyMessage === 'error' || bodyMessage === '';
  if (isGeneric && isLargeSession(context, 0.4, 80_000, 80)) {
    return result('context_overflow', { shouldCompress: true });
  }
  return result('format_error', { retryable: false, shouldFallback: true });
}

/**
 * "Large" for the generic-400 (0.4 / 80K / 80) and disconnect (0.6 / 120K / 200) heuristics.
 * 2026-07 applies the absolute thresholds only to windows of 256K or less.
 */
export function isLargeSession(
  context: Pick<StatusContext, 'approxTokens' | 'contextLength' | 'numMessages' | 'preset'>,
  fractionOfWindow: number,
  absoluteTokens: number,
  absoluteMessages: number,
): boolean {
  const absolute = context.approxTokens > absoluteTokens || context.numMessages > absoluteMessages;
  if (context.approxTokens > context.contextLength * fractionOfWindow) return true;
  const maxWindow = context.preset.errors.largeSessionMaxWindow;
  return maxWindow !== null ? context.contextLength <= maxWindow && absolute : absolute;
}

/** Empty-response advisories first (they mention "max_tokens"), then overflow wording. */
export function overflowOrEmptyResponse(
  text: string,
  overflow: readonly string[],
  result: ResultFactory,
): ClassifiedError | null {
  if (containsAny(text, EMPTY_PROVIDER_RESPONSE_PATTERNS)) return result('server_error');
  if (containsAny(text, overflow)) return result('context_overflow', { shouldCompress: true });
  return null;
}

/** `error.message` of the body, else its top-level `message`, as Python's `str(x or '')`. */
export function bodyErrorMessage(body: Record<string, unknown>): string {
  const errorObject = body.error;
  let message = '';
  if (isRecord(errorObject)) message = pythonStr(errorObject.message);
  if (message === '') message = pythonStr(body.message);
  return message;
}

/** OpenRouter's "Provider returned error" wrapper around an upstream failure. */
function isOpenRouterUpstreamError(body: Record<string, unknown>, provider: string): boolean {
  const errorObject = body.error;
  if (!isRecord(errorObject)) return false;
  if (pythonStr(errorObject.message).trim().toLowerCase() !== 'provider returned error') return false;
  if (provider === 'openrouter') return true;
  const metadata = errorObject.metadata;
  return isRecord(metadata) && ('raw' in metadata || 'provider_name' in metadata);
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `str(value or '')` for the JSON values a body can hold. */
export function pythonStr(value: unknown): string {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return '';
  if (typeof value === 'string') return value;
  if (value === true) return 'True';
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}
