import { COMPARISON_COLUMNS, comparisonCells } from '../../core/comparison/comparison-columns.ts';
import type { Comparison } from '../../core/comparison/comparison.ts';
import { formatCount } from '../../core/shared/format-count.ts';

/** The comparison as a plain-text table for the terminal, with a line saying what it measured. */
export function formatCompareTable(comparison: Comparison, file: string): string {
  const rows = comparison.rows.map(comparisonCells);
  const widths = COMPARISON_COLUMNS.map((column) =>
    Math.max(column.header.length, ...rows.map((row) => row[column.key].length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((text, index) => text.padEnd(widths[index]!))
      .join('  ')
      .trimEnd();
  return [
    `${file}: ${formatCount(comparison.messages)} messages, ${formatCount(comparison.tokensBefore)} tokens (${comparison.counting}), ${formatCount(comparison.contextLength)}-token window, priced as ${comparison.model} on ${comparison.provider}`,
    '',
    line(COMPARISON_COLUMNS.map((column) => column.header)),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map((row) => line(COMPARISON_COLUMNS.map((column) => row[column.key]))),
  ].join('\n');
}
