/**
 * Gateway session hygiene (hermes-reference §4.5): before an incoming message is processed, a
 * long stored session is compacted once it reaches 85% of the window or a hard message count.
 * The 85% is fixed, independent of the compression threshold. Vectors: gateway_hygiene.json.
 */
import type { Preset } from '../presets/preset.ts';

/** Fixed fractions of the model window used by hygiene. */
export const HYGIENE_THRESHOLD_RATIO = 0.85;
export const HYGIENE_WARN_RATIO = 0.95;
/** Hygiene only looks at sessions with at least this many stored messages. */
export const HYGIENE_MIN_HISTORY_LENGTH = 4;

export interface HygieneInput {
  readonly historyLength: number;
  readonly contextLength: number;
  /** The session's last provider prompt count; 0 or less means unknown. */
  readonly lastPromptTokens: number;
  /** Rough estimate of the stored history, used when no real count is known. */
  readonly roughTokens: number;
  readonly compressionEnabled: boolean;
  /** `compression.hygiene_hard_message_limit` (2026-07 only). */
  readonly hardMessageLimit: number;
}

export type HygieneDecision =
  | { readonly runsCheck: false; readonly needsCompress: false }
  | {
      readonly runsCheck: true;
      readonly thresholdTokens: number;
      readonly warnAfterTokens: number;
      readonly tokensUsed: number;
      readonly tokenSource: 'actual' | 'estimated';
      readonly needsCompress: boolean;
    };

export function hygieneDecision(input: HygieneInput, preset: Preset): HygieneDecision {
  if (input.historyLength < HYGIENE_MIN_HISTORY_LENGTH || !input.compressionEnabled) {
    return { runsCheck: false, needsCompress: false };
  }
  const thresholdTokens = Math.trunc(input.contextLength * HYGIENE_THRESHOLD_RATIO);
  const warnAfterTokens = Math.trunc(input.contextLength * HYGIENE_WARN_RATIO);
  const actual = input.lastPromptTokens > 0;
  const tokensUsed = actual ? input.lastPromptTokens : input.roughTokens;
  // 2026-04 hard-coded the valve; 2026-07 reads `hygiene_hard_message_limit`.
  const hardLimit = preset.gates.fixedHygieneMessageLimit ?? input.hardMessageLimit;
  return {
    runsCheck: true,
    thresholdTokens,
    warnAfterTokens,
    tokensUsed,
    tokenSource: actual ? 'actual' : 'estimated',
    needsCompress: tokensUsed >= thresholdTokens || input.historyLength >= hardLimit,
  };
}
