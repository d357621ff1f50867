/**
 * Everything a Hermes `ContextCompressor` remembers between calls, as one plain serialisable
 * value. Functions take a state and return the next one, so the worker can hand it across
 * comlink and IndexedDB can persist it (Hermes keeps the same facts on the instance and in
 * `sessions.compression_*` columns).
 */
export interface CompressorState {
  /** Completed compactions in this session; ≥ 1 decays `protect_first_n` to 0 (2026-07). */
  readonly compressionCount: number;
  /** The last summary body (no prefix), fed back as PREVIOUS SUMMARY on the next compaction. */
  readonly previousSummary: string | null;
  /** `now()` value (ms) until which summary calls are paused; 0 when there is no cooldown. */
  readonly cooldownUntilMs: number;
  /** Why the last summary attempt failed, as shown to the user. */
  readonly lastSummaryError: string | null;
  /** Timeout-class failures in a row: they climb the 60 → 300 → 900 s cooldown ladder. */
  readonly consecutiveTimeouts: number;
  /** Anti-thrash strikes; ≥ 2 blocks automatic compaction. */
  readonly ineffectiveCount: number;
  /** Completed compactions in a row that used the deterministic fallback; ≥ 2 blocks (2026-07). */
  readonly fallbackStreak: number;
  /** Armed by a completed compaction; the next real prompt count judges it (2026-07). */
  readonly verifyCompactionClearedThreshold: boolean;
  /** Provider prompt tokens of the last response; −1 means "just compacted, no usage yet". */
  readonly lastPromptTokens: number;
  readonly lastCompletionTokens: number;
  readonly lastTotalTokens: number;
  readonly lastRealPromptTokens: number;
  /** Rough request estimate right after the last compaction (deferral baseline). */
  readonly lastCompressionRoughTokens: number;
  /** Rough estimate last proven to fit by a real reading; ratchets up with each deferral. */
  readonly lastRoughTokensWhenRealPromptFit: number;
  readonly awaitingRealUsageAfterCompression: boolean;
  /** The auxiliary summary model failed once, so the main model summarises from now on. */
  readonly summaryModelFallenBack: boolean;
  /** Sticky until a summary succeeds: an auth/quota failure makes compress() abort (2026-07). */
  readonly lastSummaryAuthFailure: boolean;
  /** Sticky until a summary succeeds: a dropped connection makes compress() abort (2026-07). */
  readonly lastSummaryNetworkFailure: boolean;
  /** Diagnostic: message-only savings of the last compaction, in percent. */
  readonly lastCompressionSavingsPercent: number;
}

export const INITIAL_COMPRESSOR_STATE: CompressorState = {
  compressionCount: 0,
  previousSummary: null,
  cooldownUntilMs: 0,
  lastSummaryError: null,
  consecutiveTimeouts: 0,
  ineffectiveCount: 0,
  fallbackStreak: 0,
  verifyCompactionClearedThreshold: false,
  lastPromptTokens: 0,
  lastCompletionTokens: 0,
  lastTotalTokens: 0,
  lastRealPromptTokens: 0,
  lastCompressionRoughTokens: 0,
  lastRoughTokensWhenRealPromptFit: 0,
  awaitingRealUsageAfterCompression: false,
  summaryModelFallenBack: false,
  lastSummaryAuthFailure: false,
  lastSummaryNetworkFailure: false,
  lastCompressionSavingsPercent: 100,
};

/** A fresh state, optionally with some fields set (tests, resumed sessions). */
export function createCompressorState(overrides: Partial<CompressorState> = {}): CompressorState {
  return { ...INITIAL_COMPRESSOR_STATE, ...overrides };
}

export const isCooldownActive = (state: CompressorState, nowMs: number): boolean =>
  nowMs < state.cooldownUntilMs;

/** Clears the summary-failure cooldown (a success, `/compress`, or a runtime switch). */
export function clearFailureCooldown(state: CompressorState): CompressorState {
  return { ...state, cooldownUntilMs: 0, lastSummaryError: null, consecutiveTimeouts: 0 };
}

/** Pauses summary calls for `seconds` from `nowMs`. */
export function recordFailureCooldown(
  state: CompressorState,
  seconds: number,
  error: string | null,
  nowMs: number,
): CompressorState {
  return { ...state, cooldownUntilMs: nowMs + seconds * 1000, lastSummaryError: error };
}
