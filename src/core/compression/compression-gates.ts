/**
 * The gates around compaction (hermes-reference §4.7): whether to compress at a token count,
 * how real usage updates the anti-thrash state, when a rough preflight estimate is deferred to
 * the next real reading. 2026-07 has two breakers (ineffective count judged by real usage, and
 * the fallback streak) plus a failure cooldown that blocks triggering; 2026-04 only had an
 * ineffective count that compress() itself updated. Vectors: anti_thrash_gates.json.
 */
import type { Preset } from '../presets/preset.ts';
import { type CompressorState, isCooldownActive } from './compressor-state.ts';

/** Why automatic compaction is off while the context is over the threshold. */
export type CompressionBlock = 'cooldown' | 'ineffective' | 'fallback-streak';

export interface ShouldCompressVerdict {
  readonly compress: boolean;
  /** Set only when the tokens are over the threshold but a breaker or cooldown said no. */
  readonly blockedBy: CompressionBlock | null;
}

export interface GateContext {
  readonly thresholdTokens: number;
  readonly preset: Preset;
  /** The injected clock, ms (only the cooldown reads it). */
  readonly nowMs: number;
}

const judgesRealUsage = (preset: Preset): boolean => preset.gates.antiThrash === 'real-usage';

/** Which breaker, if any, stops automatic compaction right now. */
export function compressionBlock(state: CompressorState, context: GateContext): CompressionBlock | null {
  if (!judgesRealUsage(context.preset)) return state.ineffectiveCount >= 2 ? 'ineffective' : null;
  if (isCooldownActive(state, context.nowMs)) return 'cooldown';
  if (state.ineffectiveCount >= 2) return 'ineffective';
  if (state.fallbackStreak >= 2) return 'fallback-streak';
  return null;
}

/** Hermes `should_compress_info`: `tokens` defaults to the last provider prompt count. */
export function shouldCompress(
  state: CompressorState,
  context: GateContext,
  tokens: number = state.lastPromptTokens,
): ShouldCompressVerdict {
  if (tokens < context.thresholdTokens) return { compress: false, blockedBy: null };
  const blockedBy = compressionBlock(state, context);
  return { compress: blockedBy === null, blockedBy };
}

/** Provider usage as the compressor reads it (OpenAI field names, like Hermes). */
export interface PromptUsage {
  readonly prompt_tokens?: number;
  readonly completion_tokens?: number;
  readonly total_tokens?: number;
}

/**
 * Hermes `update_from_response`. In 2026-07 a real reading below the threshold clears the
 * ineffective count, and the first reading after a compaction is the anti-thrash verdict.
 */
export function updateFromResponse(
  state: CompressorState,
  usage: PromptUsage,
  thresholdTokens: number,
  preset: Preset,
): CompressorState {
  const promptTokens = usage.prompt_tokens ?? 0;
  const completionTokens = usage.completion_tokens ?? 0;
  let next: CompressorState = {
    ...state,
    lastPromptTokens: promptTokens,
    lastCompletionTokens: completionTokens,
    lastTotalTokens: usage.total_tokens ?? promptTokens + completionTokens,
  };
  if (!judgesRealUsage(preset)) return next;
  if (promptTokens > 0) {
    next = { ...next, lastRealPromptTokens: promptTokens };
    if (promptTokens < thresholdTokens) {
      if (next.awaitingRealUsageAfterCompression && next.lastCompressionRoughTokens > 0) {
        next = { ...next, lastRoughTokensWhenRealPromptFit: next.lastCompressionRoughTokens };
      }
      next = { ...next, ineffectiveCount: 0 };
    } else {
      next = { ...next, lastRoughTokensWhenRealPromptFit: 0 };
    }
    // Judged here, on real usage, because only the provider's count says whether the
    // just-compacted prompt got under the line (system prompt + tools are incompressible).
    if (next.verifyCompactionClearedThreshold) {
      next = { ...next, ineffectiveCount: promptTokens >= thresholdTokens ? next.ineffectiveCount + 1 : 0 };
    }
  }
  // Consumed even without usage, so a usage-less response cannot leave the verdict armed.
  return { ...next, verifyCompactionClearedThreshold: false, awaitingRealUsageAfterCompression: false };
}

/**
 * Hermes `record_completed_compaction` (2026-07): arms the one-shot verification and updates
 * the fallback streak (a healthy summary resets it; ordinary responses never do).
 */
export function recordCompletedCompaction(state: CompressorState, usedFallback: boolean): CompressorState {
  return {
    ...state,
    verifyCompactionClearedThreshold: true,
    fallbackStreak: usedFallback ? state.fallbackStreak + 1 : 0,
  };
}

/**
 * What `compress_context` records right after a completed boundary (§6 step 16): the rough
 * request estimate as the deferral baseline and the −1 "awaiting real usage" sentinel. 2026-04
 * stored the rough estimate itself as the last prompt count instead.
 */
export function markCompactionBoundary(
  state: CompressorState,
  roughTokens: number,
  preset: Preset,
): CompressorState {
  if (!judgesRealUsage(preset)) return { ...state, lastPromptTokens: roughTokens };
  return {
    ...state,
    lastCompressionRoughTokens: roughTokens,
    lastPromptTokens: -1,
    lastCompletionTokens: 0,
    awaitingRealUsageAfterCompression: true,
  };
}

export interface DeferVerdict {
  readonly defer: boolean;
  readonly state: CompressorState;
}

/**
 * Hermes `should_defer_preflight_to_real_usage` (2026-07): a high rough estimate is trusted
 * less than a recent real reading that fitted, as long as it grew only modestly. Each deferral
 * ratchets the baseline up.
 */
export function shouldDeferPreflightToRealUsage(
  state: CompressorState,
  roughTokens: number,
  thresholdTokens: number,
  preset: Preset,
): DeferVerdict {
  const no = { defer: false, state };
  if (!judgesRealUsage(preset) || roughTokens < thresholdTokens) return no;
  if (state.awaitingRealUsageAfterCompression) return { defer: true, state };
  if (state.lastRealPromptTokens <= 0 || state.lastRealPromptTokens >= thresholdTokens) return no;
  const baseline = state.lastRoughTokensWhenRealPromptFit || state.lastCompressionRoughTokens;
  if (baseline <= 0) return no;
  const growth = Math.max(0, roughTokens - baseline);
  const toleratedGrowth = Math.max(4096, Math.trunc(thresholdTokens * 0.05));
  if (growth > toleratedGrowth) return no;
  return {
    defer: true,
    state: { ...state, lastRoughTokensWhenRealPromptFit: Math.max(baseline, roughTokens) },
  };
}
