/**
 * A comparison as one JSON object: the `npm run compare -- --json` contract of ROUND2 §2
 * (`{file, contextLength, strategies: [{name, fires, thresholdTokens, tokensBefore, tokensAfter,
 * messagesAfter, summaryTokens, fidelity: {score, total, lost: [{kind, text}]}, cost: {summaryUsd,
 * cacheRewriteTokens, nextTurnInputUsd}, simulation: {turns, compactions, peakTokens,
 * inputTokensBilled}}]}`), with more fields beside those, and the Compare tab's JSON export.
 */
import type { FactKind } from '../fidelity/fact.ts';
import type { CompactSkipReason, PlanReason } from '../strategies/strategy.ts';
import type { CompactionCause } from '../simulation/session-simulation.ts';
import type { Comparison, ComparisonRow } from './comparison.ts';

export interface ComparisonReport {
  readonly file: string;
  readonly contextLength: number;
  readonly model: string;
  readonly provider: string;
  readonly counting: string;
  readonly messages: number;
  readonly strategies: readonly StrategyReport[];
}

export interface StrategyReport {
  readonly name: string;
  readonly label: string;
  readonly overrides: readonly string[];
  readonly fires: boolean;
  readonly reason: PlanReason;
  readonly thresholdTokens: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly messagesBefore: number;
  readonly messagesAfter: number;
  readonly summaryTokens: number;
  readonly skipped: CompactSkipReason | null;
  readonly fidelity: {
    readonly score: number;
    readonly total: number;
    readonly survived: number;
    /** `text` is the fact as written; `normalized` is what survival looks for. */
    readonly lost: readonly {
      readonly kind: FactKind;
      readonly text: string;
      readonly normalized: string;
      readonly messageIndex: number;
    }[];
  };
  readonly cost: {
    readonly summaryUsd: number | null;
    readonly cacheRewriteTokens: number;
    readonly cacheRewriteUsd: number | null;
    readonly costUsd: number | null;
    readonly breakEvenTurn: number | null;
    readonly nextTurnInputUsd: number | null;
  };
  readonly simulation: {
    readonly turns: number;
    readonly requests: number;
    readonly compactions: number;
    readonly peakTokens: number;
    /** Prompt tokens of every request: the input billed, whatever its price. */
    readonly inputTokensBilled: number;
    readonly inputTokens: {
      readonly uncached: number;
      readonly cacheRead: number;
      readonly cacheWrite: number;
    };
    readonly inputUsd: { readonly withCaching: number | null; readonly withoutCaching: number | null };
    readonly cacheRewriteTokens: number;
    readonly overflowRequests: number;
    readonly points: readonly {
      readonly turn: number;
      readonly request: number;
      readonly cause: CompactionCause;
      readonly tokensBefore: number;
      readonly tokensAfter: number;
      readonly fidelity: number;
    }[];
  } | null;
}

function strategyReport(row: ComparisonRow): StrategyReport {
  const simulation = row.simulation;
  return {
    name: row.strategy,
    label: row.label,
    overrides: row.overrides,
    fires: row.fires,
    reason: row.reason,
    thresholdTokens: row.thresholdTokens,
    tokensBefore: row.tokensBefore,
    tokensAfter: row.tokensAfter,
    messagesBefore: row.messagesBefore,
    messagesAfter: row.messagesAfter,
    summaryTokens: row.summaryTokens,
    skipped: row.skipped,
    fidelity: {
      score: row.fidelity.score,
      total: row.fidelity.total,
      survived: row.fidelity.survived,
      lost: row.fidelity.lost.map((fact) => ({
        kind: fact.kind,
        text: fact.display,
        normalized: fact.text,
        messageIndex: fact.messageIndex,
      })),
    },
    cost: {
      // A compaction that changed nothing has no ledger: its figures are null, not $0.
      summaryUsd: row.ledger?.summaryUsd ?? null,
      cacheRewriteTokens: row.ledger?.cacheRewriteTokens ?? 0,
      cacheRewriteUsd: row.ledger?.cacheRewriteUsd ?? null,
      costUsd: row.ledger?.costUsd ?? null,
      breakEvenTurn: row.ledger?.breakEvenTurn ?? null,
      nextTurnInputUsd: row.nextTurnInputUsd,
    },
    simulation: simulation
      ? {
          turns: simulation.turns,
          requests: simulation.requests,
          compactions: simulation.compactions.length,
          peakTokens: simulation.peakTokens,
          inputTokensBilled: simulation.input.tokens,
          inputTokens: {
            uncached: simulation.input.uncachedTokens,
            cacheRead: simulation.input.cacheReadTokens,
            cacheWrite: simulation.input.cacheWriteTokens,
          },
          inputUsd: {
            withCaching: simulation.input.usdWithCaching,
            withoutCaching: simulation.input.usdWithoutCaching,
          },
          cacheRewriteTokens: simulation.cacheRewriteTokens,
          overflowRequests: simulation.overflowRequests,
          points: simulation.compactions.map((compaction) => ({
            turn: compaction.turn,
            request: compaction.request,
            cause: compaction.cause,
            tokensBefore: compaction.tokensBefore,
            tokensAfter: compaction.tokensAfter,
            fidelity: compaction.fidelity.score,
          })),
        }
      : null,
  };
}

/** The comparison of `file` (a path, or the transcript's title in the app) as one JSON object. */
export function comparisonReport(comparison: Comparison, file: string): ComparisonReport {
  return {
    file,
    contextLength: comparison.contextLength,
    model: comparison.model,
    provider: comparison.provider,
    counting: comparison.counting,
    messages: comparison.messages,
    strategies: comparison.rows.map(strategyReport),
  };
}
