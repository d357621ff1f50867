/**
 * A compaction strategy as a value: when it fires, what it keeps, what it summarises or drops,
 * and how it writes the summary. Hermes' two generations are the first two; other tools'
 * strategies (Codex CLI, Claude Code, opencode, Cline, Anthropic's server, LCM) sit beside them.
 *
 * Everything below the settings, storage and CLI edges works with the `Strategy` object and
 * never with its name: the lab's planner, the worker, the live chat loop, the replay and the
 * comparison all call `plan` and `compact` the same way (see `compact-conversation.ts`).
 */
import type { CompressorState } from '../compression/compressor-state.ts';
import type { CompressionResult } from '../compression/compress.ts';
import type { PrunedToolOutput } from '../compression/prune-old-tool-results.ts';
import type { SummaryTextCache } from '../compression/serialize-for-summary.ts';
import type { AbortSignalLike, Summarizer } from '../compression/summarizer.ts';
import type { CompressionConfig } from '../config/compression-config.ts';
import type { Preset } from '../presets/preset.ts';
import type { RoughSizeCache } from '../tokens/estimate-messages-tokens-rough.ts';
import type { RoughMessagesTotal } from '../tokens/estimate-request-tokens-rough.ts';
import type { Message } from '../transcript/message.ts';
import type { ToolSchema } from '../transcript/transcript.ts';
import type { HermesPlanDetails } from './hermes-plan-details.ts';
import type { LiveLoopHooks } from './live-loop-hooks.ts';
import type { StrategyName } from './strategy-names.ts';

/**
 * What a compaction does to one input message, stored one byte per message (`Uint8Array`):
 * kept verbatim, kept but shortened (a one-liner, a cleared result, shrunk arguments),
 * represented by a summary, or removed with only a marker left.
 */
export const FATE = { kept: 0, pruned: 1, summarized: 2, dropped: 3 } as const;
export type Fate = (typeof FATE)[keyof typeof FATE];
export const FATE_NAMES = ['kept', 'pruned', 'summarized', 'dropped'] as const;
export type FateName = (typeof FATE_NAMES)[number];

/** A strategy-specific setting (Hermes' own settings live in `CompressionConfig`). */
export interface StrategyOption {
  /** Key in `CompressionConfig.strategyOptions`. */
  readonly key: string;
  readonly label: string;
  /** One sentence: what it changes, in the tool's terms. */
  readonly help: string;
  readonly defaultValue: number;
  readonly min: number;
  readonly max: number;
  readonly step: number;
  readonly unit: 'tokens' | 'percent' | 'messages' | 'count';
}

/** How the map names the three message bands of this strategy's plan. */
export interface RegionLabels {
  readonly head: string;
  readonly middle: string;
  readonly tail: string;
}

/** The trigger in the strategy's own terms. */
export interface StrategyTrigger {
  /** Compaction fires at or above this many prompt tokens. */
  readonly thresholdTokens: number;
  /** How the number was derived, e.g. "90% of the 200,000-token window". */
  readonly rule: string;
}

/**
 * Token counts the caller already has for the transcript (the map's basis: exact counts when
 * they are complete, else the rough estimate). Strategies that count like a provider size
 * their kept sets with these; Hermes always uses its own rough estimate.
 */
export interface MessageTokens {
  /** Tokens of message `index` alone. */
  readonly of: (index: number) => number;
  /** Tokens of the whole request (messages + tool schemas) as the trigger sees it. */
  readonly request: number;
  /** Whether these are exact counts (an encoding) rather than a character estimate. */
  readonly exact: boolean;
}

export interface PlanInput {
  readonly messages: readonly Message[];
  readonly tools: readonly ToolSchema[];
  readonly config: CompressionConfig;
  readonly state: CompressorState;
  readonly tokens: MessageTokens;
  /** What `strategy.prepare(messages, tools)` returned (cached by the planner across settings). */
  readonly prepared: unknown;
  /** Clock for the failure cooldown; without it the cooldown is not judged. */
  readonly nowMs?: number;
  /**
   * The live chat loop's count of this request (its pre-request check: the messages with the
   * system prompt first, plus tool schemas, Hermes' rough estimate). Set for a chat session's
   * plan: the trigger is then judged on it, as the loop judges it. `tokens.request` is the same
   * count then, so only strategies with a count of their own (Hermes) read this.
   */
  readonly loopRequestTokens?: number;
  /**
   * The messages are a chat request: its system prompt first, then the stored conversation,
   * which is all the live loop compacts (the prompt stays on the session). Set with
   * `loopRequestTokens`. A strategy that counts a leading system message inside its protected
   * head (Hermes 2026-04) counts the prompt on top of it here, as the chat's compaction does.
   */
  readonly systemPromptOutside?: boolean;
}

/** Why a plan would not compact now. */
export type PlanReason =
  | 'ready'
  | 'below-threshold'
  | 'too-few-messages'
  | 'hermes-raised'
  | 'no-compressible-window'
  | 'cooldown'
  | 'ineffective'
  | 'fallback-streak'
  | 'disabled'
  /** The live loop waits for the provider's next prompt count before compacting (2026-07). */
  | 'deferred';

/** One span of input messages that one summary stands for. */
export interface SummarySpan {
  readonly start: number;
  readonly end: number;
  /**
   * `middle` for a handoff summary, `leaf` for an LCM leaf summary (depth 0), `condensed` for an
   * LCM summary of depth-0 summaries (depth 1).
   */
  readonly kind: 'middle' | 'leaf' | 'condensed';
  /**
   * Hermes: neither role fits between the kept head and tail, so the summary travels inside the
   * first tail message and adds no message of its own.
   */
  readonly mergedIntoTail?: true;
}

/** A file a strategy re-attaches after the summary (Claude Code re-reads recent files). */
export interface ReattachedFile {
  readonly path: string;
  /** The input message whose content is re-attached (the last read or edit of the file). */
  readonly sourceIndex: number;
  readonly tokens: number;
  /** `content`: the file comes back; `path-only`: too large, only its path is mentioned. */
  readonly mode: 'content' | 'path-only';
}

/** What a compaction would do now, without calling a summariser. Synchronous and cheap. */
export interface StrategyPlan {
  readonly trigger: StrategyTrigger;
  /** The count the trigger was judged on (`tokens.request` or the strategy's own count). */
  readonly triggerTokens: number;
  /** Which count that was. */
  readonly triggerBasis: 'rough' | 'exact' | 'estimate';
  readonly wouldCompress: boolean;
  readonly reason: PlanReason;
  /** `messages[:headEnd]` kept verbatim at the start, `messages[tailStart:]` at the end. */
  readonly headEnd: number;
  readonly tailStart: number;
  /** One fate per input message (`FATE`). */
  readonly fates: Uint8Array;
  /** Tool outputs or arguments shortened while kept. */
  readonly pruned: readonly PrunedToolOutput[];
  /** Tokens each shortened message gives back, by input index (the strategy's own estimate). */
  readonly prunedSavings: ReadonlyMap<number, number>;
  readonly summaries: readonly SummarySpan[];
  readonly reattached: readonly ReattachedFile[];
  /** Tokens the summaries are expected to take (their budget), for the "after" projection. */
  readonly summaryTokens: number;
  /** What the strategy does and why, in its own terms, one sentence each. */
  readonly explanation: readonly string[];
  /** Hermes' phase details (the tail walk, pruning boundary, hygiene); null for other tools. */
  readonly hermes: HermesPlanDetails | null;
}

export interface CompactInput {
  readonly messages: readonly Message[];
  readonly tools: readonly ToolSchema[];
  readonly config: CompressionConfig;
  readonly state: CompressorState;
  readonly tokens?: MessageTokens;
  readonly prepared?: unknown;
  /** A manual `/compress <focus>`. */
  readonly focusTopic?: string;
  /** Manual compaction: clears the failure cooldown first. */
  readonly force?: boolean;
  /** The caller's token count for this request. */
  readonly currentTokens?: number;
  readonly tailTokenBudgetOverride?: number;
  /** `YYYY-MM-DD` for prompts that anchor the summary in time; null omits it. */
  readonly today?: string | null;
  readonly mainModel?: string | null;
  readonly memoryContext?: string;
  /**
   * Reviewed summaries, in the order of `StrategyCompaction.summaries`: when given, the
   * summariser is not called and these bodies are used as written (prefix and markers are
   * still added). Committing an edited summary is the same compaction with its text fixed.
   */
  readonly summaryOverrides?: readonly string[];
  /** Input indices (pinned messages) that must survive verbatim. */
  readonly pinned?: ReadonlySet<number>;
  /**
   * Per-message rough sizes under the strategy's preset, by message identity, shared by every
   * measurement of this compaction. `compactConversation` passes the planner's (carried by the
   * prepared value) or one of its own, so no message is measured twice.
   */
  readonly sizeCache?: RoughSizeCache;
  /** Each message as the summariser reads it, under the strategy's preset (same sharing). */
  readonly summaryTextCache?: SummaryTextCache;
  /**
   * The rough estimate of `messages` under the strategy's preset, when the caller measured it
   * (`compactConversation` does, once, for its own report): the strategy's `tokensBefore`.
   */
  readonly messagesTokens?: number;
}

export interface CompactDeps {
  readonly summarizer: Summarizer;
  /** Clock in milliseconds. */
  readonly now: () => number;
  readonly signal?: AbortSignalLike;
}

/** Why `compact` returned its input unchanged. */
export type CompactSkipReason =
  | 'too-few-messages'
  | 'hermes-raised'
  | 'no-compressible-window'
  | 'nothing-new-after-summary'
  | 'summary-failed-aborted'
  | 'would-grow';

/** One summary a compaction inserted. */
export interface CompactionSummary {
  /** The body as the summariser (or the reviewer) wrote it, without prefix or markers. */
  readonly body: string;
  /** Where it sits in the output. */
  readonly outputIndex: number;
  /** The input messages it stands for. */
  readonly span: SummarySpan;
  /** The prompt that produced it (null for an override or a deterministic fallback). */
  readonly prompt: string | null;
  /** Whether the deterministic fallback wrote it (the summariser failed). */
  readonly fallback: boolean;
}

export interface StrategyCompaction {
  readonly messages: Message[];
  readonly state: CompressorState;
  /** Null when it compacted. */
  readonly skipped: CompactSkipReason | null;
  /** Why it skipped, or what it did, in words. */
  readonly notes: readonly string[];
  readonly fates: Uint8Array;
  readonly pruned: readonly PrunedToolOutput[];
  readonly summaries: readonly CompactionSummary[];
  readonly reattached: readonly ReattachedFile[];
  /** Rough message estimates before and after (the strategy's preset estimator). */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Summariser calls made (0 with overrides, the offline summariser counts). */
  readonly summarizerCalls: number;
  readonly warning: string | null;
  /** The full Hermes result for the replay's phase views; null for other tools. */
  readonly hermes: CompressionResult | null;
}

/** What the planner shares between the strategies preparing one transcript. */
export interface PrepareContext {
  /** Per-message rough sizes under a preset's estimator, measured once per transcript. */
  readonly sizeCache: (preset: Preset) => RoughSizeCache;
  /** Each message as the summariser reads it under a preset, kept across compactions. */
  readonly summaryTextCache: (preset: Preset) => SummaryTextCache;
  /**
   * The rough sizes of the messages being prepared, summed under a preset, when the caller has
   * measured that list (the planner has, to draw it); a compaction of the same list starts from
   * them instead of walking every message again.
   */
  readonly listSizes?: (preset: Preset) => RoughMessagesTotal;
}

/**
 * What the page shows of a strategy — its name, labels, host preset and settings — without its
 * code. The settings, pickers and comparison entries hold these (the strategy catalog); the
 * worker, the chat loop and the CLIs hold the whole `Strategy` (the registry), so the page's
 * bundle carries no compaction code.
 */
export interface StrategyProfile {
  /** The registry name. Only settings, storage and the CLI look a strategy up by it. */
  readonly name: StrategyName;
  /** Short display name, e.g. "Codex CLI". */
  readonly label: string;
  /** One line for pickers and `--list-strategies`. */
  readonly summary: string;
  /** A paragraph: which tool it is modelled on, as of when, and the rules it follows. */
  readonly description: string;
  /**
   * The Hermes generation that hosts it in the live loop (error classification, caching,
   * usage, sessions, gates) and whose rough estimator measures messages.
   */
  readonly preset: Preset;
  /** Whether Hermes' settings (threshold %, target ratio, protect_first_n/last_n) apply. */
  readonly usesHermesSettings: boolean;
  /** The strategy's own settings, read from `config.strategyOptions`. */
  readonly options: readonly StrategyOption[];
  readonly regionLabels: RegionLabels;
}

export interface Strategy extends StrategyProfile, LiveLoopHooks {
  /** Where its trigger fires for these settings. */
  trigger(config: CompressionConfig): StrategyTrigger;
  /**
   * Per-transcript work that does not depend on the settings (sizes, pruning candidates).
   * The planner keeps the result for the transcript's lifetime; `plan` and `compact` reuse it.
   */
  prepare(messages: readonly Message[], tools: readonly ToolSchema[], shared?: PrepareContext): unknown;
  plan(input: PlanInput): StrategyPlan;
  /** Always compacts when it can (a manual `/compress`); the caller decides when to call it. */
  compact(input: CompactInput, deps: CompactDeps): Promise<StrategyCompaction>;
}

/** The value of a strategy option, falling back to its default. */
export function optionValue(config: CompressionConfig, option: StrategyOption): number {
  const value = config.strategyOptions?.[option.key];
  return typeof value === 'number' && Number.isFinite(value) ? value : option.defaultValue;
}
