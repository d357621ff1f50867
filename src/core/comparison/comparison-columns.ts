/**
 * The comparison table's columns as text, shared by the CLI's table, the Markdown export and
 * the Compare tab, so all three say the same thing the same way.
 */
import { formatCompactCount, formatCount } from '../shared/format-count.ts';
import { formatUsd } from '../usage/format-usd.ts';
import type { ComparisonRow } from './comparison.ts';

export const COMPARISON_COLUMNS = [
  { key: 'entry', header: 'entry' },
  { key: 'fires', header: 'fires?' },
  { key: 'threshold', header: 'threshold' },
  { key: 'tokens', header: 'tokens before → after' },
  { key: 'messagesAfter', header: 'messages after' },
  { key: 'summaryTokens', header: 'summary tokens' },
  { key: 'fidelity', header: 'fidelity' },
  { key: 'compactionCost', header: 'compaction cost' },
  { key: 'nextTurnCost', header: 'next-turn input' },
  { key: 'compactions', header: 'simulated compactions' },
  { key: 'billedInput', header: 'simulated input (cached / uncached $)' },
] as const;

export type ComparisonColumn = (typeof COMPARISON_COLUMNS)[number]['key'];

export const formatPercent = (fraction: number): string => `${Number((fraction * 100).toFixed(1))}%`;

/**
 * The compaction's effect on the context: `before → after`, or `before (skipped: reason)` when it
 * did not run (an unchanged `after` alone would read as a compaction that saved nothing).
 */
export function tokensFigure(row: ComparisonRow, format: (count: number) => string = formatCount): string {
  return row.skipped === null
    ? `${format(row.tokensBefore)} → ${format(row.tokensAfter)}`
    : `${format(row.tokensBefore)} (skipped: ${row.skipped})`;
}

/** One row's cells, by column. */
export function comparisonCells(row: ComparisonRow): Record<ComparisonColumn, string> {
  const simulation = row.simulation;
  const compacted = row.skipped === null;
  return {
    entry: row.label,
    fires: row.fires ? 'yes' : `no (${row.reason})`,
    threshold: formatCount(row.thresholdTokens),
    tokens: tokensFigure(row),
    messagesAfter: formatCount(row.messagesAfter),
    summaryTokens: formatCount(row.summaryTokens),
    fidelity: `${formatPercent(row.fidelity.score)} (${formatCount(row.fidelity.survived)}/${formatCount(row.fidelity.total)})`,
    compactionCost: row.ledger ? formatUsd(row.ledger.costUsd) : '—',
    nextTurnCost: compacted ? formatUsd(row.nextTurnInputUsd) : '—',
    compactions: simulation
      ? `${formatCount(simulation.compactions.length)}${simulation.overflowRequests > 0 ? ` (${formatCount(simulation.overflowRequests)} over the window)` : ''}`
      : '—',
    billedInput: simulation
      ? `${formatCompactCount(simulation.input.tokens)} (${formatUsd(simulation.input.usdWithCaching)} / ${formatUsd(simulation.input.usdWithoutCaching)})`
      : '—',
  };
}
