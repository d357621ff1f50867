/**
 * What replaying a transcript as a lived session under one strategy gave: how often it
 * compacted and when, how large the context grew, and what the input cost with and without
 * prompt caching. Plain data (typed arrays included), so it crosses the worker boundary as is.
 */
import type { FactKind } from '../fidelity/fact.ts';
import type { KindFidelity } from '../fidelity/measure-fidelity.ts';
import type { CompactionLedger } from '../ledger/compute-compaction-ledger.ts';
import type { CompactSkipReason, StrategyPlan } from '../strategies/strategy.ts';
import type { StrategyName } from '../strategies/strategy-names.ts';

/**
 * What started a compaction: the strategy's trigger, or the provider refusing a request larger
 * than the window (overflow recovery, which every tool runs past its anti-thrash breakers).
 */
export type CompactionCause = 'trigger' | 'overflow';

/** One compaction during the replay. */
export interface SimulatedCompaction {
  /** The turn it happened in (1 = the first user ask). */
  readonly turn: number;
  /** The request it happened before (0-based). */
  readonly request: number;
  /** The transcript message the model was about to write (the assistant message of that request). */
  readonly messageIndex: number;
  readonly cause: CompactionCause;
  /** The count the trigger saw (its own basis: Hermes' rough estimate, else the given counts). */
  readonly triggerTokens: number;
  /** Request tokens (messages + tool schemas, the given counting) before and after. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly messagesBefore: number;
  readonly messagesAfter: number;
  /** Tokens the next request writes to the prompt cache again because the prefix changed. */
  readonly cacheRewriteTokens: number;
  /** What survived of the facts this compaction put at risk (the lost list is left out). */
  readonly fidelity: {
    readonly score: number;
    readonly total: number;
    readonly survived: number;
    readonly byKind: Readonly<Record<FactKind, KindFidelity>>;
  };
  readonly ledger: CompactionLedger;
}

/** A firing trigger whose compaction changed nothing (too few messages, would grow…). */
export interface SkippedCompaction {
  readonly turn: number;
  readonly request: number;
  readonly cause: CompactionCause;
  readonly reason: CompactSkipReason;
}

export interface SimulatedInput {
  /** Prompt tokens over every request: what the provider bills as input, in all buckets. */
  readonly tokens: number;
  readonly uncachedTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  /** Every prompt token at the input price; null when the model has no price. */
  readonly usdWithoutCaching: number | null;
  /** The same requests with the prefix cache (reads and writes at their prices); null when unknown. */
  readonly usdWithCaching: number | null;
  /** Whether the route caches prompts at all (the cache policy of the model and provider). */
  readonly caching: boolean;
}

export interface SessionSimulation {
  readonly strategy: StrategyName;
  readonly thresholdTokens: number;
  /** Which count the trigger decided on (from the strategy's plan). */
  readonly triggerBasis: StrategyPlan['triggerBasis'];
  readonly messages: number;
  /** User asks: each starts a turn. */
  readonly turns: number;
  /** Model steps: one request before each assistant message. */
  readonly requests: number;
  readonly compactions: readonly SimulatedCompaction[];
  readonly skipped: readonly SkippedCompaction[];
  /** The largest request sent (after any compaction before it), and which one it was. */
  readonly peakTokens: number;
  readonly peakRequest: number;
  /** Requests still larger than the window after overflow recovery: a provider would have rejected them. */
  readonly overflowRequests: number;
  readonly input: SimulatedInput;
  /** Sum of `cacheRewriteTokens` over the compactions. */
  readonly cacheRewriteTokens: number;
  /** The summariser calls of every compaction, estimated from their prompts and answers. */
  readonly summarizer: {
    readonly calls: number;
    readonly inputTokens: number;
    readonly outputTokens: number;
    readonly usd: number | null;
  };
  /** Per request: the tokens sent and the transcript index of the assistant message it produced. */
  readonly timeline: {
    readonly tokens: Int32Array;
    readonly messageIndex: Int32Array;
  };
}
