/**
 * What the lab's context map and explanation panel draw: the compression plan of one
 * transcript under one set of settings, reduced to plain data that crosses the worker
 * boundary cheaply. Token figures are in the plan's `tokenBasis` (the rough estimate or an
 * exact encoding); message ranges are 0-based and half-open.
 */
import type { TailCutStep } from '../compression/find-tail-cut.ts';
import type { PlanReason } from '../compression/plan-compression.ts';
import type { PrunedToolOutput } from '../compression/prune-old-tool-results.ts';
import type { HygieneDecision } from '../compression/hygiene-decision.ts';
import type { DerivedThresholds } from '../config/derive-thresholds.ts';
import type { BoundarySwitches } from '../presets/preset.ts';
import type { PresetName } from '../presets/preset-name.ts';
import type { HermesRaised } from '../shared/hermes-raised.ts';
import type { Estimator } from '../tokens/estimator.ts';
import type { CompactionPointKind } from '../transcript/transcript.ts';

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

/** A pruning replacement as the UI lists it; `replacement` is cut for very long argument JSON. */
export type PrunedOutputView = PrunedToolOutput;

export interface LabPlan {
  readonly preset: PresetName;
  /** How the preset sizes the head (what the explanation describes). */
  readonly headRule: BoundarySwitches['head'];
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
  readonly thresholds: DerivedThresholds;
  readonly tailTokenBudget: number;
  /** The model's window; the map spans max(window, totalTokens). */
  readonly windowTokens: number;
  /** The gateway hygiene line: 85% of the window. */
  readonly hygieneTokens: number;
  readonly hygiene: HygieneDecision;
  /** The count the trigger was judged on: the request estimate (messages + tool schemas) in the basis. */
  readonly triggerTokens: number;
  readonly wouldCompress: boolean;
  readonly reason: PlanReason;
  /** Messages kept verbatim at the start before alignment (`_protect_head_size`). */
  readonly headSize: number;
  readonly tooFewMessages: boolean;
  /** compress() needs more than this many messages. */
  readonly minMessagesExclusive: number;
  readonly pruneBoundary: number;
  /** Where 2026-04 Hermes' pruning would raise (reason `hermes-raised`), with Python's exception. */
  readonly raised: HermesRaised | null;
  readonly prunedCount: number;
  readonly pruned: readonly PrunedOutputView[];
  readonly prunedSpans: readonly PrunedSpan[];
  /** Tokens (basis) that pruning would reclaim, all outputs together. */
  readonly prunedSavedTokens: number;
  readonly headEnd: number;
  readonly tailStart: number;
  readonly tailCutSteps: readonly TailCutStep[];
  readonly compactionMarkers: readonly CompactionMarker[];
  /** Worker time for this plan, milliseconds. */
  readonly elapsedMs: number;
  /** The worker document revision the plan was computed on; stale plans are dropped by it. */
  readonly revision: number;
}
