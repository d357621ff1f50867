/**
 * A side-by-side comparison of strategies (and settings) on one transcript (ROUND2 §2): per
 * entry, what its compaction would do at the current point (the whole transcript, forced) and
 * what it would have done over the whole session (the simulation). Plain data: the worker sends
 * it to the page as is, without the transcript.
 */
import type { FidelityReport } from '../fidelity/measure-fidelity.ts';
import type { CompactionLedger } from '../ledger/compute-compaction-ledger.ts';
import type { SessionSimulation } from '../simulation/session-simulation.ts';
import type {
  CompactSkipReason,
  PlanReason,
  ReattachedFile,
  StrategyPlan,
  SummarySpan,
} from '../strategies/strategy.ts';
import type { StrategyName } from '../strategies/strategy-names.ts';
import type { CompareEntry } from './compare-entry.ts';
import type { CompareLane } from './compare-lane.ts';

/** One summary the entry's compaction wrote. */
export interface ComparedSummary {
  readonly body: string;
  readonly span: SummarySpan;
  /** Tokens of the summary message as the model sees it (prefix included). */
  readonly tokens: number;
  /** The deterministic fallback wrote it (the summariser failed). */
  readonly fallback: boolean;
}

export interface ComparisonRow {
  readonly entry: CompareEntry;
  readonly label: string;
  readonly strategy: StrategyName;
  readonly strategyLabel: string;
  /** The entry's overrides in words; empty for the strategy's defaults. */
  readonly overrides: readonly string[];
  /** Whether the trigger fires on the whole transcript (the plan), and why not when it does not. */
  readonly fires: boolean;
  readonly reason: PlanReason;
  readonly thresholdTokens: number;
  readonly triggerRule: string;
  readonly triggerTokens: number;
  readonly triggerBasis: StrategyPlan['triggerBasis'];
  /** Request tokens (messages + tool schemas, the comparison's counting) before and after. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly messagesBefore: number;
  readonly messagesAfter: number;
  /** Tokens of the summary messages in the result. */
  readonly summaryTokens: number;
  /** Why the compaction changed nothing; null when it compacted. */
  readonly skipped: CompactSkipReason | null;
  /** What the compaction did, in words. */
  readonly notes: readonly string[];
  /** The plan's explanation in the strategy's own terms. */
  readonly explanation: readonly string[];
  /** What survived of the facts it put at risk; the lost facts index the transcript. */
  readonly fidelity: FidelityReport;
  /** Its cost and savings; null when it compacted nothing. */
  readonly ledger: CompactionLedger | null;
  /** The input of the first request after it, with caching; null when unpriced or nothing compacted. */
  readonly nextTurnInputUsd: number | null;
  readonly summaries: readonly ComparedSummary[];
  readonly reattached: readonly ReattachedFile[];
  readonly lane: CompareLane;
  /** The whole session replayed under this entry; null when the simulation was not asked for. */
  readonly simulation: SessionSimulation | null;
}

export interface Comparison {
  readonly messages: number;
  readonly contextLength: number;
  readonly model: string;
  readonly provider: string;
  /** The counting every figure is in: an encoding's name, or `rough` (the host's estimate). */
  readonly counting: string;
  /** The transcript's request tokens (messages + tool schemas). */
  readonly tokensBefore: number;
  /** 1 when the transcript opens with a system prompt (the lanes put the tool schemas after it). */
  readonly systemEnd: number;
  readonly rows: readonly ComparisonRow[];
}

export type CompareError =
  | { readonly type: 'NoEntries'; readonly message: string }
  | { readonly type: 'UnknownStrategy'; readonly name: string; readonly message: string }
  | { readonly type: 'Cancelled'; readonly message: string }
  /** Something unexpected went wrong (a bug); the message says what. */
  | { readonly type: 'Failed'; readonly message: string };

/** How far a comparison has got: units are messages replayed, plus one per entry's compaction. */
export interface CompareProgress {
  readonly done: number;
  readonly total: number;
  /** The entry being worked on. */
  readonly label: string;
}
