import type { Preset } from '../presets/preset.ts';
import type { CompressionConfig } from './compression-config.ts';

/** Hermes `MINIMUM_CONTEXT_LENGTH`: the threshold never goes below this many tokens. */
export const MINIMUM_CONTEXT_TOKENS = 64_000;
/** When that minimum swallows the whole window, trigger at this fraction of it (2026-07). */
export const SWALLOWED_WINDOW_TRIGGER_RATIO = 0.85;
export const MIN_TARGET_RATIO = 0.1;
export const MAX_TARGET_RATIO = 0.8;
/** `max_summary_tokens = min(context × 5%, ceiling)`. */
export const SUMMARY_TOKENS_CONTEXT_FRACTION = 0.05;

export interface DerivedThresholds {
  contextLength: number;
  /** The percentage as configured (kept so a model switch can re-derive). */
  configuredThresholdPercent: number;
  /** After the small-window floor (2026-07). */
  effectiveThresholdPercent: number;
  /** Compaction fires at or above this many prompt tokens. */
  thresholdTokens: number;
  /** Token budget of the protected tail. */
  tailTokenBudget: number;
  maxSummaryTokens: number;
  /** The target ratio after clamping to [0.10, 0.80]. */
  targetRatio: number;
  /** The output reservation that was subtracted, or null when none applied. */
  reservedOutputTokens: number | null;
}

/** Only a positive integer is an output reservation; anything else means none (`_coerce_max_tokens`). */
export function coerceMaxTokens(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  const whole = Math.trunc(value);
  return whole > 0 ? whole : null;
}

/** Hermes `_compute_threshold_tokens(ctx, pct, max_tokens)` (2026-07 has the guard and reservation). */
function computeThresholdTokens(
  contextLength: number,
  percent: number,
  reservedOutputTokens: number | null,
  guardsSwallowedWindow: boolean,
): number {
  let window = contextLength - (reservedOutputTokens ?? 0);
  if (window <= 0) window = contextLength;
  const floored = Math.max(Math.trunc(window * percent), MINIMUM_CONTEXT_TOKENS);
  if (guardsSwallowedWindow && window > 0 && floored >= window) {
    return Math.max(1, Math.min(Math.trunc(window * SWALLOWED_WINDOW_TRIGGER_RATIO), window - 1));
  }
  return floored;
}

/**
 * What `ContextCompressor.__init__` derives from the config.
 * Example: a 200K window at defaults gives threshold 150000 / tail 30000 / summary 10000 for
 * 2026-07 (the 75% floor under 512K applies) and 100000 / 20000 / 10000 for 2026-04.
 */
export function deriveThresholds(config: CompressionConfig, preset: Preset): DerivedThresholds {
  const switches = preset.thresholds;
  const contextLength = config.contextLength;
  const targetRatio = Math.max(MIN_TARGET_RATIO, Math.min(config.targetRatio, MAX_TARGET_RATIO));
  const floor = switches.smallWindowFloor;
  const effectiveThresholdPercent =
    floor && contextLength > 0 && contextLength < floor.windowLimitTokens
      ? Math.max(config.thresholdPercent, floor.minPercent)
      : config.thresholdPercent;
  const reservedOutputTokens = switches.reservesMaxTokens ? coerceMaxTokens(config.maxTokens) : null;
  const thresholdTokens = computeThresholdTokens(
    contextLength,
    effectiveThresholdPercent,
    reservedOutputTokens,
    switches.guardsSwallowedWindow,
  );
  return {
    contextLength,
    configuredThresholdPercent: config.thresholdPercent,
    effectiveThresholdPercent,
    thresholdTokens,
    tailTokenBudget: Math.trunc(thresholdTokens * targetRatio),
    maxSummaryTokens: Math.min(
      Math.trunc(contextLength * SUMMARY_TOKENS_CONTEXT_FRACTION),
      switches.summaryTokensCeiling,
    ),
    targetRatio,
    reservedOutputTokens,
  };
}
