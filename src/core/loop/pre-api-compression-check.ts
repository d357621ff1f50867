/**
 * The check before every provider call inside the turn loop (hermes-reference §4.2): the
 * request pressure (messages including the system message, plus tool schemas) against the
 * threshold, within the per-turn compression budget that overflow recovery shares.
 */
import { shouldCompress } from '../compression/compression-gates.ts';
import type { CompressorState } from '../compression/compressor-state.ts';
import { MAX_COMPRESSION_ATTEMPTS } from '../providers/plan-error-recovery.ts';
import type { Preset } from '../presets/preset.ts';
import {
  estimateMessagesTokensRough,
  type RoughSizeCache,
} from '../tokens/estimate-messages-tokens-rough.ts';
import { estimateToolsTokensRough } from '../tokens/estimate-tools-tokens-rough.ts';
import type { Message } from '../transcript/message.ts';
import type { ToolSchema } from '../transcript/transcript.ts';

export interface PreApiCheckInput {
  readonly compressionEnabled: boolean;
  readonly messageCount: number;
  /** Compactions already run in this turn (pre-API passes and overflow recoveries). */
  readonly compressionAttempts: number;
  readonly preflightBlocked: boolean;
  readonly preflightDeferred: boolean;
  /** `estimate_messages_tokens_rough(api_messages) + tools estimate`. */
  readonly pressureTokens: number;
  readonly thresholdTokens: number;
  readonly state: CompressorState;
  readonly nowMs: number;
}

/**
 * The pressure the check judges: `estimate_messages_tokens_rough(api_messages)` plus
 * `_estimate_tools_tokens_rough(tools)`, each rounded on its own. `apiMessages` already holds the
 * system message (`requestMessages`), so there is no separate system term.
 */
export function requestPressureTokens(
  apiMessages: readonly Message[],
  tools: readonly ToolSchema[],
  preset: Preset,
  cache?: RoughSizeCache,
): number {
  return estimateMessagesTokensRough(apiMessages, preset, cache) + estimateToolsTokensRough(tools, preset);
}

export function shouldCompressBeforeApiCall(input: PreApiCheckInput, preset: Preset): boolean {
  if (!input.compressionEnabled || input.messageCount <= 1) return false;
  if (input.compressionAttempts >= MAX_COMPRESSION_ATTEMPTS) return false;
  if (input.preflightBlocked || input.preflightDeferred) return false;
  return shouldCompress(
    input.state,
    { thresholdTokens: input.thresholdTokens, preset, nowMs: input.nowMs },
    input.pressureTokens,
  ).compress;
}

/**
 * After a pre-API pass: still over the threshold and the pass cut 5% or less means another
 * pass would only thrash, so the check is blocked for the rest of the turn.
 */
export function blocksFurtherPreApiPasses(
  tokensBefore: number,
  tokensAfter: number,
  thresholdTokens: number,
): boolean {
  return tokensAfter >= thresholdTokens && tokensAfter >= tokensBefore * 0.95;
}
