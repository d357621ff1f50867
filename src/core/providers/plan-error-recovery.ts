import type { ClassifiedError } from '../errors/classified-error.ts';
import {
  getContextLengthFromProviderError,
  getNextProbeTier,
  isOutputCapError,
  parseAvailableOutputTokensFromError,
  parseContextLimitFromError,
} from '../errors/context-error-parsing.ts';
import type { FailoverReason } from '../errors/failover-reason.ts';
import type { Preset } from '../presets/preset.ts';
import { computeBackoffDelayMs } from './compute-backoff-delay.ts';

/** Hermes' `max_compression_attempts`: per turn, shared with the pre-API compression check. */
export const MAX_COMPRESSION_ATTEMPTS = 3;
/** Transient retries of one request (rate limit, overload, server error, timeout). */
export const MAX_RETRY_ATTEMPTS = 3;
/** Output tokens kept free below the provider's stated room (`available − 64`). */
export const OUTPUT_CAP_SAFETY_MARGIN_TOKENS = 64;
/** Anthropic's standard window, where a refused long-context tier steps down to. */
export const STANDARD_TIER_CONTEXT_TOKENS = 200_000;

/** Hermes' terminal texts (hermes-reference §7.3), shown to the user as they are. */
export const RECOVERY_FAILURE_TEXTS = {
  compressionDisabled:
    'Context overflow and auto-compaction is disabled (compression.enabled: false). Run /compress to compact manually, /new to start fresh, or switch to a larger-context model.',
  overflowAttemptsExhausted: `Context length exceeded: max compression attempts (${MAX_COMPRESSION_ATTEMPTS}) reached.`,
  payloadAttemptsExhausted: `Request payload too large: max compression attempts (${MAX_COMPRESSION_ATTEMPTS}) reached.`,
  outputCap:
    "max_tokens exceeds the provider's output cap for this model. Lower model.max_tokens in config.yaml.",
} as const;

export type ErrorRecoveryAction =
  /** Send the same request again after the wait. */
  | { kind: 'retry-after-backoff'; delayMs: number; retryAttempts: number }
  /**
   * Compress, then judge the result with `judgeCompressionProgress`. `newContextLength` is the
   * window to adopt first; `persistable` says whether it came from the provider (worth saving)
   * or is a guess (a probe tier, the standard tier).
   */
  | {
      kind: 'compress-and-retry';
      compressionAttempts: number;
      newContextLength?: number;
      persistable: boolean;
    }
  /** Retry without compressing, with this ephemeral `max_tokens`; the window stays as it is. */
  | { kind: 'retry-with-max-tokens'; maxTokens: number; compressionAttempts: number }
  /** Give up this turn with this text; `compressionExhausted` mirrors Hermes' result flag. */
  | { kind: 'fail'; message: string; compressionExhausted: boolean };

export interface ErrorRecoveryInput {
  classified: ClassifiedError;
  /** The provider's error text as the classifier read it (exception text plus body message). */
  message: string;
  /** Compression attempts already used in this turn. */
  compressionAttempts: number;
  /** Transient retries already used for this request. */
  retryAttempts: number;
  contextLength: number;
  /** Rough token estimate of the failed request (messages plus tool schemas). */
  requestTokens: number;
  compressionEnabled: boolean;
  /** From the response's `retry-after` headers. */
  retryAfterMs?: number | undefined;
  /** In [0, 1), for the backoff jitter. */
  random: number;
}

const OVERFLOW_REASONS: ReadonlySet<FailoverReason> = new Set([
  'long_context_tier',
  'payload_too_large',
  'context_overflow',
]);
const TRANSIENT_REASONS: ReadonlySet<FailoverReason> = new Set([
  'rate_limit',
  'overloaded',
  'server_error',
  'timeout',
]);

/**
 * What the chat loop does after a failed provider call (hermes-reference §7.3, `conversation_loop.py`).
 * Overflow-shaped errors compress (at most 3 times per turn); output-cap errors lower
 * `max_tokens` and never compress; transient errors wait and retry; everything else fails.
 *
 * 2026-04 differs in three places: with no number in the error the window steps down through
 * the probe tiers; the output-cap retry is `available − 64` without the local estimate; and
 * there is no fast failure for output-cap errors without a number (they go down the input path).
 */
export function planErrorRecovery(input: ErrorRecoveryInput, preset: Preset): ErrorRecoveryAction {
  const { classified, message } = input;
  const available = parseAvailableOutputTokensFromError(message, preset);
  const outputCap =
    available !== null || (preset.recovery.outputCapErrors === 'all-shapes' && isOutputCapError(message));

  if (OVERFLOW_REASONS.has(classified.reason)) {
    if (!input.compressionEnabled && !outputCap) {
      return {
        kind: 'fail',
        message: RECOVERY_FAILURE_TEXTS.compressionDisabled,
        compressionExhausted: true,
      };
    }
    const compressionAttempts = input.compressionAttempts + 1;
    switch (classified.reason) {
      case 'long_context_tier':
        if (compressionAttempts > MAX_COMPRESSION_ATTEMPTS)
          return exhausted(RECOVERY_FAILURE_TEXTS.overflowAttemptsExhausted);
        return {
          kind: 'compress-and-retry',
          compressionAttempts,
          ...(input.contextLength > STANDARD_TIER_CONTEXT_TOKENS
            ? { newContextLength: STANDARD_TIER_CONTEXT_TOKENS }
            : {}),
          persistable: false,
        };
      case 'payload_too_large':
        if (compressionAttempts > MAX_COMPRESSION_ATTEMPTS)
          return exhausted(RECOVERY_FAILURE_TEXTS.payloadAttemptsExhausted);
        return { kind: 'compress-and-retry', compressionAttempts, persistable: false };
      default:
        return planContextOverflow(input, compressionAttempts, available, preset);
    }
  }

  if (TRANSIENT_REASONS.has(classified.reason) && classified.retryable) {
    const retryAttempts = input.retryAttempts + 1;
    if (retryAttempts >= MAX_RETRY_ATTEMPTS) {
      return {
        kind: 'fail',
        message: `API call failed after ${MAX_RETRY_ATTEMPTS} attempts: ${classified.message}`,
        compressionExhausted: false,
      };
    }
    return {
      kind: 'retry-after-backoff',
      delayMs: computeBackoffDelayMs({
        retryNumber: retryAttempts,
        retryAfterMs: input.retryAfterMs,
        random: input.random,
      }),
      retryAttempts,
    };
  }
  const status = classified.statusCode !== null ? ` (HTTP ${classified.statusCode})` : '';
  return {
    kind: 'fail',
    message: `Provider error${status}, not retried [${classified.reason}]: ${classified.message}`,
    compressionExhausted: false,
  };
}

function planContextOverflow(
  input: ErrorRecoveryInput,
  compressionAttempts: number,
  available: number | null,
  preset: Preset,
): ErrorRecoveryAction {
  if (available !== null) {
    const local = input.contextLength - input.requestTokens;
    const room =
      !preset.recovery.capsOutputRoomByLocalEstimate || local <= 0 ? available : Math.min(available, local);
    const maxTokens = Math.max(1, room - OUTPUT_CAP_SAFETY_MARGIN_TOKENS);
    if (compressionAttempts > MAX_COMPRESSION_ATTEMPTS)
      return exhausted(RECOVERY_FAILURE_TEXTS.overflowAttemptsExhausted);
    return { kind: 'retry-with-max-tokens', maxTokens, compressionAttempts };
  }
  if (preset.recovery.outputCapErrors === 'all-shapes' && isOutputCapError(input.message)) {
    return { kind: 'fail', message: RECOVERY_FAILURE_TEXTS.outputCap, compressionExhausted: false };
  }
  let newContextLength: number | null;
  let persistable: boolean;
  if (preset.recovery.windowAfterOverflow === 'parse-or-step-down') {
    const parsed = parseContextLimitFromError(input.message, preset);
    newContextLength =
      parsed !== null && parsed < input.contextLength
        ? parsed
        : getNextProbeTier(input.contextLength, preset);
    if (newContextLength !== null && newContextLength >= input.contextLength) newContextLength = null;
    persistable = newContextLength !== null && newContextLength === parsed;
  } else {
    newContextLength = getContextLengthFromProviderError(input.message, input.contextLength);
    persistable = newContextLength !== null;
  }
  if (compressionAttempts > MAX_COMPRESSION_ATTEMPTS)
    return exhausted(RECOVERY_FAILURE_TEXTS.overflowAttemptsExhausted);
  return {
    kind: 'compress-and-retry',
    compressionAttempts,
    ...(newContextLength !== null ? { newContextLength } : {}),
    persistable,
  };
}

function exhausted(message: string): ErrorRecoveryAction {
  return { kind: 'fail', message, compressionExhausted: true };
}
