import type { BenchRow, BenchSkip } from './bench-result.ts';
import { formatMs } from './bench-stats.ts';

/** The value as people read it: 1.23 M tokens/s, 84 ms, 45.1 KiB. */
export function formatValue(value: number, unit: string): string {
  switch (unit) {
    case 'ms':
      return formatMs(value);
    case 'tokens/s':
      return value >= 1e6
        ? `${(value / 1e6).toFixed(2)} M tokens/s`
        : `${(value / 1e3).toFixed(0)} K tokens/s`;
    case 'USD':
      return `$${value.toFixed(4)}`;
    case '%':
      return `${value.toFixed(1)} %`;
    case 'KiB':
      return `${value.toFixed(1)} KiB`;
    default:
      return `${Number.isInteger(value) ? value : value.toFixed(2)} ${unit}`;
  }
}

const metText = (met: boolean | null): string => (met === null ? '' : met ? 'yes' : 'NO');

/** A plain-text table, one line per figure, skipped figures included with their reason. */
export function formatTable(rows: readonly BenchRow[], skips: readonly BenchSkip[]): string {
  const header = ['measurement', 'size', 'median', 'target (SPEC §7)', 'met', 'notes'];
  const lines: string[][] = [
    ...rows.map((row) => [
      row.name,
      row.size === null ? '' : row.size.toLocaleString('en-US'),
      formatValue(row.value, row.unit),
      row.target ?? '',
      metText(row.met),
      row.note,
    ]),
    ...skips.map((skip) => [
      skip.name,
      skip.size === null ? '' : skip.size.toLocaleString('en-US'),
      'not measured',
      skip.target ?? '',
      '',
      skip.reason,
    ]),
  ];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => (column === header.length - 1 ? 0 : line[column]!.length))),
  );
  const render = (cells: string[]): string =>
    cells
      .map((cell, column) => (column === header.length - 1 ? cell : cell.padEnd(widths[column]!)))
      .join(' | ')
      .trimEnd();
  const rule = widths
    .map((width, column) => '-'.repeat(column === header.length - 1 ? 5 : width))
    .join('-|-');
  return [render(header), rule, ...lines.map(render)].join('\n');
}
