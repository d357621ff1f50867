import type { Preset } from '../presets/preset.ts';
import { formatCount } from '../shared/format-count.ts';

/** Hermes pauses this long before resending a compressed request. */
export const RETRY_AFTER_COMPRESSION_DELAY_MS = 2_000;
/** A compression that keeps at least this share of the tokens did not help (2026-07). */
export const MEANINGFUL_REDUCTION_RATIO = 0.95;

export interface CompressionProgressInput {
  /** The failure that led to the compression. */
  reason: 'context_overflow' | 'payload_too_large' | 'long_context_tier';
  messagesBefore: number;
  messagesAfter: number;
  /** Rough token estimates of the messages before and after compressing. */
  tokensBefore: number;
  tokensAfter: number;
  /** The recovery adopted a smaller window before compressing. */
  contextLowered: boolean;
  /** The failed request's rough estimate, quoted in the failure text. */
  approxTokens: number;
  /** A 413 can still strip image parts from tool messages, once (2026-07). */
  canStripToolImages: boolean;
}

export type CompressionProgressVerdict =
  | { kind: 'retry'; delayMs: number }
  | { kind: 'strip-tool-images-and-retry'; delayMs: number }
  | { kind: 'fail'; message: string; compressionExhausted: true };

/**
 * After `planErrorRecovery` said `compress-and-retry` and the compression ran: was it worth
 * resending (hermes-reference §7.3)? Progress means fewer messages, a lowered window, or
 * (2026-07) tokens below 95% of what they were.
 */
export function judgeCompressionProgress(
  input: CompressionProgressInput,
  preset: Preset,
): CompressionProgressVerdict {
  const fewerMessages = input.messagesAfter < input.messagesBefore;
  const fewerTokens =
    preset.recovery.judgesProgressByTokens &&
    input.tokensAfter > 0 &&
    input.tokensAfter < input.tokensBefore * MEANINGFUL_REDUCTION_RATIO;
  const retry = { kind: 'retry', delayMs: RETRY_AFTER_COMPRESSION_DELAY_MS } as const;
  if (input.reason === 'payload_too_large') {
    if (fewerMessages || fewerTokens) return retry;
    if (preset.recovery.stripsToolImagesOnPayloadTooLarge && input.canStripToolImages) {
      return { kind: 'strip-tool-images-and-retry', delayMs: RETRY_AFTER_COMPRESSION_DELAY_MS };
    }
    return {
      kind: 'fail',
      message: 'Request payload too large (413). Cannot compress further.',
      compressionExhausted: true,
    };
  }
  const fewerTokensCounts = input.reason === 'context_overflow' && fewerTokens;
  if (fewerMessages || input.contextLowered || fewerTokensCounts) return retry;
  return {
    kind: 'fail',
    message: `Context length exceeded (${formatCount(input.approxTokens)} tokens). Cannot compress further.`,
    compressionExhausted: true,
  };
}
