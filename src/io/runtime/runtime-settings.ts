import type { CompressionConfig } from '../../core/config/compression-config.ts';
import type { CompactionMode } from '../../core/sessions/compaction-mode.ts';
import type { StrategyProfile } from '../../core/strategies/strategy.ts';
import type { ProviderSettings } from '../llm/provider-settings.ts';

/** The output cap of chat requests unless the user sets one: room for a long answer, far below any window. */
export const DEFAULT_CHAT_MAX_OUTPUT_TOKENS = 4096;

/** Everything one turn reads from the user's settings, read afresh at the start of each turn. */
export interface RuntimeSettings {
  /**
   * The compaction strategy in force, as the page holds it (its profile); each turn runs the
   * strategy it describes. Its preset hosts the loop (errors, caching, usage, gates).
   */
  readonly strategy: StrategyProfile;
  /** Null when no key is set: the chat cannot send, compaction uses the offline summariser. */
  readonly provider: ProviderSettings | null;
  /**
   * Thresholds, summary model (`summaryModel`, '' = main model), cache TTL and the window
   * (`contextLength`, from the model table or the user's override).
   */
  readonly compression: CompressionConfig;
  readonly maxOutputTokens: number;
  /** Send cache markers when the route supports them (off to compare costs). */
  readonly promptCaching: boolean;
  /** The system prompt of new sessions; a resumed session keeps the one it was created with. */
  readonly systemPrompt: string;
  /** Where compactions go; absent: the mode of the strategy's preset (2026-07 in place, 2026-04 rotate). */
  readonly compactionMode?: CompactionMode;
  /** "Review compactions before they apply": automatic compactions stop for review too. */
  readonly reviewCompactions?: boolean;
}
