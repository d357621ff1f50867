import type { Preset } from '../presets/preset.ts';
import {
  estimateMessagesTokensRoughCapped,
  type RoughSizeCache,
} from '../tokens/estimate-messages-tokens-rough.ts';
import type { Message } from '../transcript/message.ts';

/** The summary is asked for at least this many tokens. */
export const MIN_SUMMARY_TOKENS = 2000;
/** …and otherwise for this share of the compacted content. */
export const SUMMARY_RATIO = 0.2;

/**
 * Hermes `_compute_summary_budget(turns)`:
 * `max(2000, min(int(estimate_messages_tokens_rough(turns) × 0.20), max_summary_tokens))`.
 * The estimate stops once it is large enough to hit the ceiling, so a huge middle is not
 * measured to the last character for a number that is clamped anyway.
 */
export function computeSummaryBudget(
  turns: readonly Message[],
  maxSummaryTokens: number,
  preset: Preset,
  cache?: RoughSizeCache,
): number {
  // Any estimate at or above this gives int(estimate × 0.2) ≥ maxSummaryTokens.
  const saturationTokens = Math.ceil(maxSummaryTokens / SUMMARY_RATIO) + 1;
  const contentTokens = estimateMessagesTokensRoughCapped(turns, preset, saturationTokens, cache);
  return Math.max(MIN_SUMMARY_TOKENS, Math.min(Math.trunc(contentTokens * SUMMARY_RATIO), maxSummaryTokens));
}
