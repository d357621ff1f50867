/**
 * The turn-prologue preflight as pure decisions (hermes-reference §4.1): whether to compact
 * before the first request of a turn, and after each pass whether another one is warranted.
 * The runtime runs the passes; these functions say when to start and when to stop.
 */
import { shouldCompress, shouldDeferPreflightToRealUsage } from '../compression/compression-gates.ts';
import type { CompressorState } from '../compression/compressor-state.ts';
import {
  compressionMadeProgress,
  shouldRunPreflightEstimate,
  warrantsAnotherPreflightPass,
} from '../compression/preflight-checks.ts';
import type { Preset } from '../presets/preset.ts';

/** Hermes runs at most this many `_compress_context` passes in one preflight. */
export const MAX_PREFLIGHT_PASSES = 3;

export interface PreflightStartInput {
  readonly compressionEnabled: boolean;
  readonly messageCount: number;
  /** Rough estimate of the messages alone (the 2026-07 "few but huge messages" gate). */
  readonly roughMessageTokens: () => number;
  /** `estimate_request_tokens_rough(messages, system_prompt, tools)`. */
  readonly requestTokens: number;
  readonly protectFirstN: number;
  readonly protectLastN: number;
  readonly thresholdTokens: number;
  readonly state: CompressorState;
  readonly nowMs: number;
}

export interface PreflightStart {
  readonly compress: boolean;
  /** 2026-07: the rough estimate was deferred to the next real usage reading. */
  readonly deferred: boolean;
  /** The state with the deferral ratchet and the rough floor on `lastPromptTokens` applied. */
  readonly state: CompressorState;
}

/**
 * 2026-04: a message-count gate, then `t ≥ threshold` directly (no deferral, no cooldown).
 * 2026-07: a count-or-size gate, deferral to real usage, the rough estimate as a floor for
 * `last_prompt_tokens` (never over the −1 sentinel), then `should_compress(t)`.
 */
export function decidePreflightStart(input: PreflightStartInput, preset: Preset): PreflightStart {
  const { state } = input;
  const no = (next: CompressorState, deferred = false): PreflightStart => ({
    compress: false,
    deferred,
    state: next,
  });
  if (!input.compressionEnabled) return no(state);
  if (preset.loop.preflight === 'threshold-only') {
    if (input.messageCount <= input.protectFirstN + input.protectLastN + 1) return no(state);
    return { compress: input.requestTokens >= input.thresholdTokens, deferred: false, state };
  }
  const gate = shouldRunPreflightEstimate({
    messageCount: input.messageCount,
    roughMessageTokens: input.roughMessageTokens,
    protectFirstN: input.protectFirstN,
    protectLastN: input.protectLastN,
    thresholdTokens: input.thresholdTokens,
  });
  if (!gate) return no(state);
  const verdict = shouldDeferPreflightToRealUsage(state, input.requestTokens, input.thresholdTokens, preset);
  let next = verdict.state;
  if (verdict.defer) return no(next, true);
  if (next.lastPromptTokens >= 0 && next.lastPromptTokens < input.requestTokens)
    next = { ...next, lastPromptTokens: input.requestTokens };
  const compress = shouldCompress(
    next,
    { thresholdTokens: input.thresholdTokens, preset, nowMs: input.nowMs },
    input.requestTokens,
  ).compress;
  return { compress, deferred: false, state: next };
}

export interface PreflightPassOutcome {
  /** 1-based number of the pass that just ran. */
  readonly pass: number;
  readonly before: { readonly messageCount: number; readonly tokens: number };
  readonly after: { readonly messageCount: number; readonly tokens: number };
  readonly thresholdTokens: number;
  /** 2026-07: `should_compress(t)` on the new estimate (breakers included). */
  readonly stillShouldCompress: boolean;
}

/** `continue`: run another pass; `done`: stop, all is well; `blocked`: stop and block the pre-API check this turn. */
export type PreflightNextStep = 'continue' | 'done' | 'blocked';

/**
 * 2026-04 stops when a pass removed no rows or the request is under the threshold.
 * 2026-07 blocks on no progress (rows or 5% of tokens), stops when `should_compress` says no,
 * and blocks when another pass is not warranted (still over, but the last cut was ≤ 5%).
 */
export function decideAfterPreflightPass(outcome: PreflightPassOutcome, preset: Preset): PreflightNextStep {
  const { before, after } = outcome;
  if (preset.loop.preflight === 'threshold-only') {
    if (after.messageCount >= before.messageCount || after.tokens < outcome.thresholdTokens) return 'done';
    return outcome.pass >= MAX_PREFLIGHT_PASSES ? 'done' : 'continue';
  }
  if (!compressionMadeProgress(before, after)) return 'blocked';
  if (!outcome.stillShouldCompress) return 'done';
  if (!warrantsAnotherPreflightPass(before.tokens, after.tokens, outcome.thresholdTokens)) return 'blocked';
  return outcome.pass >= MAX_PREFLIGHT_PASSES ? 'done' : 'continue';
}
