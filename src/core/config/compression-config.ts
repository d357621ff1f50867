/** Prompt-cache lifetime Hermes asks Anthropic for. Any other configured value means `5m`. */
export type CacheTtl = '5m' | '1h';

/**
 * The `compression:` block of Hermes' config.yaml (plus the summary model and cache TTL that
 * live elsewhere in it), in camelCase. Percentages and ratios are fractions (0.5 = 50%).
 */
export interface CompressionConfig {
  /** Master switch; also blocks overflow-triggered auto-compaction. */
  enabled: boolean;
  /** The main model's context window in tokens. */
  contextLength: number;
  /** Configured trigger as a fraction of the window (`compression.threshold`). */
  thresholdPercent: number;
  /** Tail token budget = threshold × ratio, clamped to [0.10, 0.80]. */
  targetRatio: number;
  /** Head messages kept verbatim (2026-07: in addition to the system message, decaying to 0). */
  protectFirstN: number;
  /** Bounds the tail floor and is the pruning count floor. */
  protectLastN: number;
  /** Output reservation subtracted from the window (2026-07); `null` = provider default, none. */
  maxTokens: number | null;
  /** Gateway hygiene forces compaction at this message count. */
  hygieneHardMessageLimit: number;
  /** On summary failure, abort (nothing dropped) instead of inserting the fallback summary. */
  abortOnSummaryFailure: boolean;
  /** Summary model; `''` means the main model. */
  summaryModel: string;
  cacheTtl: CacheTtl;
  /** Raise the trigger to 85% for gpt-5.4/5.5/5.6 (and codex-spark) on the Codex OAuth route. */
  codexGpt55Autoraise: boolean;
  /**
   * Settings of non-Hermes strategies by option key (see `Strategy.options`); a missing key
   * means the option's default.
   */
  strategyOptions?: Readonly<Record<string, number>>;
}

/** Hermes' defaults (`DEFAULT_CONFIG["compression"]`); 200K is Context Lab's default window. */
export const DEFAULT_COMPRESSION_CONFIG: Readonly<CompressionConfig> = Object.freeze({
  enabled: true,
  contextLength: 200_000,
  thresholdPercent: 0.5,
  targetRatio: 0.2,
  protectFirstN: 3,
  protectLastN: 20,
  maxTokens: null,
  hygieneHardMessageLimit: 5000,
  abortOnSummaryFailure: false,
  summaryModel: '',
  cacheTtl: '5m',
  codexGpt55Autoraise: true,
});

/** Hermes reads `prompt_caching.cache_ttl` leniently: anything but `1h` is `5m`. */
export const normalizeCacheTtl = (value: unknown): CacheTtl => (value === '1h' ? '1h' : '5m');
