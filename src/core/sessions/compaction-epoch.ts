/**
 * Every committed compaction is an epoch of its conversation (ROUND2 §4): what it replaced and
 * with what, under which settings, what it kept and what it cost. Undo restores the state before
 * it and redo applies it again; an epoch is never deleted with its conversation still stored.
 */
import type { CompactionAssessment } from '../lab/assess-compaction.ts';
import type { CompactionReason } from '../strategies/compact-conversation.ts';
import { FATE, type SummarySpan } from '../strategies/strategy.ts';
import type { StrategyName } from '../strategies/strategy-names.ts';
import type { CompactionMode } from './compaction-mode.ts';

/**
 * `applied`: in force; `undone`: reverted, can be redone; `superseded`: reverted and then a newer
 * compaction was committed on top of the restored history, so redoing it would apply it to a
 * history it was not made for (it stays stored and can be opened and exported).
 */
export const EPOCH_STATUSES = ['applied', 'undone', 'superseded'] as const;
export type EpochStatus = (typeof EPOCH_STATUSES)[number];

/** One summary the compaction inserted, as committed. */
export interface EpochSummary {
  readonly body: string;
  /** The input messages it stands for. */
  readonly span: SummarySpan;
  /** The reviewer changed the summariser's text before committing it. */
  readonly edited: boolean;
  /** The deterministic fallback wrote it (the summariser failed). */
  readonly fallback: boolean;
}

/** Where the compaction cut, in input messages. */
export interface EpochBoundaries {
  readonly messagesBefore: number;
  readonly messagesAfter: number;
  /** Messages before the first summarised or dropped one (kept, possibly shortened). */
  readonly head: number;
  /** From the first to the last summarised or dropped message. */
  readonly middle: number;
  /** Messages after the last summarised or dropped one. */
  readonly tail: number;
  /** Input messages per fate. */
  readonly kept: number;
  readonly pruned: number;
  readonly summarized: number;
  readonly dropped: number;
  readonly spans: readonly SummarySpan[];
}

/** The settings the compaction ran with, for the export and the epoch list. */
export interface EpochSettings {
  readonly strategy: StrategyName;
  readonly strategyLabel: string;
  readonly mode: CompactionMode;
  readonly contextLength: number;
  readonly thresholdPercent: number;
  readonly targetRatio: number;
  readonly protectFirstN: number;
  readonly protectLastN: number;
  readonly strategyOptions: Readonly<Record<string, number>>;
  readonly focusTopic: string | null;
  /** Who wrote the summary ("Offline summariser (no LLM)", "Anthropic claude-…"). */
  readonly summarizer: string;
  /** The conversation's model, when known. */
  readonly model: string | null;
}

/** What a compaction contributes to its epoch record, independent of how it is stored. */
export interface CompactionEpochDetails {
  readonly reason: CompactionReason;
  /**
   * The compaction attempt, as its summariser calls' usage records name it: the usage panel's
   * ledger matches them up. Null when it made no recorded call (a replay, the offline summariser).
   */
  readonly attemptId: string | null;
  /** It stopped for review before it was committed. */
  readonly reviewed: boolean;
  readonly summaries: readonly EpochSummary[];
  readonly boundaries: EpochBoundaries;
  readonly settings: EpochSettings;
  /** Rough request estimates (system prompt + messages + tool schemas) before and after. */
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Fidelity and ledger as committed (the ledger priced from real usage in chat). */
  readonly assessment: CompactionAssessment | null;
}

/** A stored epoch, as the sessions panel, the usage panel and the export read it. */
export interface CompactionEpoch extends CompactionEpochDetails {
  readonly id: number;
  /** 1-based, in commit order within the conversation. */
  readonly number: number;
  /** The session compacted (in place: the one session; rotation: the parent). */
  readonly sessionId: string;
  /** Rotation: the continuation that received the result; null in place. */
  readonly childSessionId: string | null;
  readonly mode: CompactionMode;
  readonly status: EpochStatus;
  /** Epoch milliseconds. */
  readonly createdAt: number;
  /** When it was last undone or redone (= `createdAt` until then). */
  readonly changedAt: number;
}

/**
 * Head, middle and tail of a compaction from its per-message fates: the middle runs from the
 * first to the last message that was summarised or dropped (none: everything is head).
 *
 * @example epochBoundaries(new Uint8Array([0, 2, 2, 0]), 3, []) // head 1, middle 2, tail 1
 */
export function epochBoundaries(
  fates: Uint8Array,
  messagesAfter: number,
  spans: readonly SummarySpan[],
): EpochBoundaries {
  const counts = { kept: 0, pruned: 0, summarized: 0, dropped: 0 };
  let first = -1;
  let last = -1;
  fates.forEach((fate, index) => {
    switch (fate) {
      case FATE.kept:
        counts.kept++;
        return;
      case FATE.pruned:
        counts.pruned++;
        return;
      case FATE.summarized:
        counts.summarized++;
        break;
      default:
        counts.dropped++;
    }
    if (first < 0) first = index;
    last = index;
  });
  const total = fates.length;
  return {
    messagesBefore: total,
    messagesAfter,
    head: first < 0 ? total : first,
    middle: first < 0 ? 0 : last - first + 1,
    tail: first < 0 ? 0 : total - last - 1,
    ...counts,
    spans: spans.map((span) => ({ ...span })),
  };
}

/** The compaction a committed result describes, as the epoch record keeps it. */
export interface EpochSource {
  readonly reason: CompactionReason;
  readonly attemptId: string | null;
  readonly reviewed: boolean;
  readonly fates: Uint8Array;
  readonly messagesAfter: number;
  readonly summaries: ReadonlyArray<{
    readonly body: string;
    readonly span: SummarySpan;
    readonly fallback: boolean;
  }>;
  /** The summariser's own bodies, when a reviewer changed them (same order). */
  readonly originalBodies?: readonly string[] | null;
  readonly requestTokensBefore: number;
  readonly requestTokensAfter: number;
  readonly assessment: CompactionAssessment | null;
  readonly settings: EpochSettings;
}

/** The details an epoch record keeps of a committed compaction. */
export function compactionEpochDetails(source: EpochSource): CompactionEpochDetails {
  return {
    reason: source.reason,
    attemptId: source.attemptId,
    reviewed: source.reviewed,
    summaries: source.summaries.map((summary, index) => ({
      body: summary.body,
      span: { ...summary.span },
      edited: source.originalBodies?.[index] !== undefined && source.originalBodies[index] !== summary.body,
      fallback: summary.fallback,
    })),
    boundaries: epochBoundaries(
      source.fates,
      source.messagesAfter,
      source.summaries.map((summary) => summary.span),
    ),
    settings: source.settings,
    tokensBefore: source.requestTokensBefore,
    tokensAfter: source.requestTokensAfter,
    assessment: source.assessment,
  };
}
