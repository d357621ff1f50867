import type { AfterSegment } from './after-segments.ts';
/**
 * What the lab's context map and explanation panel draw: the compression plan of one
 * transcript under one set of settings, reduced to plain data that crosses the worker
 * boundary cheaply. Token figures are in the plan's `tokenBasis` (the rough estimate or an
 * exact encoding); message ranges are 0-based and half-open.
 */
import type { PrunedToolOutput } from '../compression/prune-old-tool-results.ts';
import type { HermesPlanDetails } from '../strategies/hermes-plan-details.ts';
import type {
  FateName,
  PlanReason,
  ReattachedFile,
  RegionLabels,
  StrategyPlan,
  StrategyTrigger,
  SummarySpan,
} from '../strategies/strategy.ts';
import type { StrategyName } from '../strategies/strategy-names.ts';
import type { Estimator } from '../tokens/estimator.ts';
import type { CompactionPointKind } from '../transcript/transcript.ts';
import type { ContextCategories } from './categorize-context.ts';
import type { PinnedPlanMessage } from './keep-pinned-in-plan.ts';
import type { TurnCompactionDecision } from '../loop/decide-turn-compaction.ts';

export const MAP_REGION_NAMES = ['system', 'tools', 'head', 'middle', 'tail'] as const;
export type MapRegionName = (typeof MAP_REGION_NAMES)[number];

/** One band of the map. `tools` holds no messages: its range is empty, at the system region's end. */
export interface MapRegion {
  readonly name: MapRegionName;
  readonly start: number;
  readonly end: number;
  readonly tokens: number;
  /** Where the band starts on the map's token axis. */
  readonly offset: number;
}

/** Neighbouring pruned outputs merged into one hatched stretch of the map's token axis. */
export interface PrunedSpan {
  readonly start: number;
  readonly end: number;
  /** Tokens pruning would reclaim in this stretch. */
  readonly savedTokens: number;
  readonly outputs: number;
}

/** Where another tool compacted the conversation itself (Claude Code, Codex, Hermes, Anthropic). */
export interface CompactionMarker {
  readonly messageIndex: number;
  readonly kind: CompactionPointKind;
  readonly offset: number;
  readonly label: string;
}

/** A pinned message where the map draws it; `rescued` says what the strategy would have done instead. */
export interface PlanPin extends PinnedPlanMessage {
  /** Where the message starts on the map's token axis, and its width there. */
  readonly offset: number;
  readonly tokens: number;
}

/** A pruning replacement as the UI lists it; `replacement` is cut for very long argument JSON. */
export type PrunedOutputView = PrunedToolOutput;

/** What the projected context after a compaction would hold, in the map's counting. */
export interface AfterProjection {
  /** Kept and shortened messages, summaries, re-attached files and tool schemas. */
  readonly tokens: number;
  readonly messages: number;
  /** Tokens the summaries are expected to take (their budget). */
  readonly summaryTokens: number;
  /** The same context stretch by stretch, adding up to `tokens` (the after lane). */
  readonly segments: readonly AfterSegment[];
  /** What does not fit: the kept tail, the trigger or the result larger than the window. */
  readonly warnings: readonly string[];
}

/**
 * What the live chat loop reads besides the conversation. A plan given one is the plan of a chat
 * session's request context (`requestMessages`: the system prompt first, then the conversation,
 * with the tool schemas the chat offers), and judges its trigger as the loop does.
 */
export interface LiveLoopContext {
  /** Hermes' `session_entry.last_prompt_tokens`: the last reported prompt count, 0 when none. */
  readonly lastSessionPromptTokens: number;
}

export interface LabPlan {
  readonly strategy: StrategyName;
  readonly strategyLabel: string;
  readonly regionLabels: RegionLabels;
  readonly messageCount: number;
  /** The estimator the user chose, and what the figures are really based on (exact counts may be pending). */
  readonly estimator: Estimator;
  readonly tokenBasis: Estimator;
  /** Tokens per message in the basis (the map's widths, the list's jump targets). */
  readonly tokensPerMessage: Int32Array;
  readonly regions: readonly MapRegion[];
  /** Messages plus tool schemas in the basis: the length of the transcript on the map. */
  readonly totalTokens: number;
  readonly systemTokens: number;
  readonly toolsTokens: number;
  readonly toolCount: number;
  /** The model's window; the map spans max(window, totalTokens), or the transcript when zoomed to fit (`mapAxis`). */
  readonly windowTokens: number;
  /** The gateway hygiene line: 85% of the window. */
  readonly hygieneTokens: number;
  readonly trigger: StrategyTrigger;
  /** The count the strategy decided on, and which count that was. */
  readonly triggerTokens: number;
  readonly triggerBasis: StrategyPlan['triggerBasis'];
  /** The request (messages + tool schemas) in both countings; exact is null until counted. */
  readonly counts: { readonly rough: number; readonly exact: number | null };
  /** The rough and the exact count fall on different sides of the trigger. */
  readonly countsDisagree: boolean;
  /**
   * For a chat session: how the live loop would decide before its next request — which check
   * fires first (hygiene, preflight, the pre-request check), or that it waits for the provider's
   * count. `wouldCompress` and `reason` follow it. Absent for a transcript.
   */
  readonly live?: TurnCompactionDecision;
  readonly wouldCompress: boolean;
  readonly reason: PlanReason;
  /** `messages[:headEnd]` kept at the start, `messages[tailStart:]` at the end. */
  readonly headEnd: number;
  readonly tailStart: number;
  /** One fate per message (`FATE`): kept, shortened, summarised or dropped; pinned messages kept. */
  readonly fates: Uint8Array;
  /**
   * The pinned messages (every one kept verbatim), ascending; absent when the plan was asked
   * for without pins (so a plan of an unpinned transcript is the data it always was).
   */
  readonly pins?: readonly PlanPin[];
  /** Messages and basis tokens per fate. */
  readonly fateTotals: Readonly<Record<FateName, { readonly messages: number; readonly tokens: number }>>;
  readonly summaries: readonly SummarySpan[];
  readonly reattached: readonly ReattachedFile[];
  readonly pruned: readonly PrunedOutputView[];
  readonly prunedSpans: readonly PrunedSpan[];
  /** Tokens (basis) that shortening would reclaim, all messages together. */
  readonly prunedSavedTokens: number;
  readonly after: AfterProjection;
  /** What the strategy does and why, in its own terms. */
  readonly explanation: readonly string[];
  /** Hermes' phase details; null for other tools' strategies. */
  readonly hermes: HermesPlanDetails | null;
  readonly compactionMarkers: readonly CompactionMarker[];
  /** Where the tokens go (the category view), in the same basis: in use = `totalTokens`. */
  readonly categories: ContextCategories;
  /** Worker time for this plan, milliseconds. */
  readonly elapsedMs: number;
  /** The worker document revision the plan was computed on; stale plans are dropped by it. */
  readonly revision: number;
}
