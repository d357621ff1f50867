import type { Preset } from '../presets/preset.ts';
import type { ClassifiedError, ResultFactory } from './classified-error.ts';
import { overflowOrEmptyResponse } from './classify-by-status.ts';
import {
  AUTH_PATTERNS,
  containsAny,
  IMAGE_TOO_LARGE_PATTERNS,
  MODEL_NOT_FOUND_PATTERNS,
  MULTIMODAL_TOOL_CONTENT_PATTERNS,
  OVERLOADED_PATTERNS,
  PAYLOAD_TOO_LARGE_PATTERNS,
  PROVIDER_POLICY_BLOCKED_PATTERNS,
  RATE_LIMIT_PATTERNS,
  TIMEOUT_MESSAGE_PATTERNS,
  USAGE_LIMIT_PATTERNS,
  USAGE_LIMIT_TRANSIENT_SIGNALS,
} from './error-patterns.ts';

/** Step 8 of the pipeline: the body's structured error code (hermes-reference §7.1). */
export function classifyByErrorCode(
  code: string,
  preset: Preset,
  result: ResultFactory,
): ClassifiedError | null {
  if (code === 'resource_exhausted' || code === 'throttled' || code === 'rate_limit_exceeded') {
    return result('rate_limit', { shouldRotateCredential: true });
  }
  if (preset.errors.billingCodes.includes(code)) {
    return result('billing', { retryable: false, shouldRotateCredential: true, shouldFallback: true });
  }
  if (code === 'model_not_found' || code === 'model_not_available' || code === 'invalid_model') {
    return result('model_not_found', { retryable: false, shouldFallback: true });
  }
  if (code === 'context_length_exceeded' || code === 'max_tokens_exceeded') {
    return result('context_overflow', { shouldCompress: true });
  }
  if (preset.errors.classifiesMediaAndEncryptedErrors && code === 'invalid_encrypted_content')
    return result('invalid_encrypted_content');
  return null;
}

/** Step 9: message patterns only, for errors without a status (hermes-reference §7.1). */
export function classifyByMessage(
  text: string,
  preset: Preset,
  result: ResultFactory,
): ClassifiedError | null {
  const extended = preset.errors.catalogue === 'extended';
  const billing = preset.errors.billingPatterns;
  const overflow = preset.errors.overflowPatterns;
  const rateLimit = () => result('rate_limit', { shouldRotateCredential: true, shouldFallback: true });
  const billingVerdict = () =>
    result('billing', { retryable: false, shouldRotateCredential: true, shouldFallback: true });

  if (containsAny(text, PAYLOAD_TOO_LARGE_PATTERNS))
    return result('payload_too_large', { shouldCompress: true });
  if (extended) {
    if (containsAny(text, MULTIMODAL_TOOL_CONTENT_PATTERNS))
      return result('multimodal_tool_content_unsupported');
    if (containsAny(text, IMAGE_TOO_LARGE_PATTERNS)) return result('image_too_large');
  }
  if (containsAny(text, USAGE_LIMIT_PATTERNS)) {
    return containsAny(text, USAGE_LIMIT_TRANSIENT_SIGNALS) ? rateLimit() : billingVerdict();
  }
  if (extended && containsAny(text, OVERLOADED_PATTERNS)) return result('overloaded');
  if (containsAny(text, billing)) return billingVerdict();
  if (containsAny(text, RATE_LIMIT_PATTERNS)) return rateLimit();
  const refined = preset.errors.detectsEmptyResponseAdvisories
    ? overflowOrEmptyResponse(text, overflow, result)
    : containsAny(text, overflow)
      ? result('context_overflow', { shouldCompress: true })
      : null;
  if (refined) return refined;
  if (containsAny(text, AUTH_PATTERNS)) {
    return result('auth', { retryable: false, shouldRotateCredential: true, shouldFallback: true });
  }
  if (containsAny(text, PROVIDER_POLICY_BLOCKED_PATTERNS))
    return result('provider_policy_blocked', { retryable: false });
  if (containsAny(text, MODEL_NOT_FOUND_PATTERNS)) {
    return result('model_not_found', { retryable: false, shouldFallback: true });
  }
  if (containsAny(text, TIMEOUT_MESSAGE_PATTERNS)) return result('timeout');
  return null;
}
