/**
 * A comparison as a Markdown document (the Compare tab's export): the table, then per entry
 * what its compaction lost (by kind, with the message each fact came from) and its summary.
 */
import { FACT_KINDS } from '../fidelity/fact.ts';
import { formatCount } from '../shared/format-count.ts';
import { formatUsd } from '../usage/format-usd.ts';
import { COMPARISON_COLUMNS, comparisonCells, formatPercent } from './comparison-columns.ts';
import type { Comparison, ComparisonRow } from './comparison.ts';

/** Table cells cannot hold a pipe or a line break. */
const cell = (text: string): string =>
  text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ');

/** Inline code that survives any backticks in the text. */
function code(text: string): string {
  const runs = text.match(/`+/g) ?? [];
  const fence = '`'.repeat(Math.max(0, ...runs.map((run) => run.length)) + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text.replace(/\s*\n\s*/g, ' ')}${pad}${fence}`;
}

/** A fenced block longer than any fence inside the text. */
function fenced(text: string): string {
  const runs = text.match(/^`{3,}/gm) ?? [];
  const fence = '`'.repeat(Math.max(3, ...runs.map((run) => run.length + 1)));
  return `${fence}text\n${text}\n${fence}`;
}

function rowSection(row: ComparisonRow): string[] {
  const lines = [`## ${row.label}`, ''];
  lines.push(
    `Strategy \`${row.strategy}\`. Trigger: ${formatCount(row.thresholdTokens)} tokens (${row.triggerRule}).`,
  );
  for (const sentence of row.explanation) lines.push(`- ${sentence}`);
  for (const note of row.notes) lines.push(`- ${note}`);
  if (row.ledger) {
    const breakEven = row.ledger.breakEvenTurn === null ? 'never' : `turn ${row.ledger.breakEvenTurn}`;
    lines.push(
      `- Ledger: summary ${formatUsd(row.ledger.summaryUsd)}, cache rewrite ${formatCount(row.ledger.cacheRewriteTokens)} tokens (${formatUsd(row.ledger.cacheRewriteUsd)}), saves ${formatUsd(row.ledger.savedUsdPerTurn)} per later turn, breaks even at ${breakEven}.`,
    );
  }
  const simulation = row.simulation;
  if (simulation) {
    const points = simulation.compactions
      .map(
        (point) =>
          `turn ${point.turn} (${formatCount(point.tokensBefore)} → ${formatCount(point.tokensAfter)})`,
      )
      .join(', ');
    lines.push(
      `- Simulated session: ${formatCount(simulation.turns)} turns, ${formatCount(simulation.requests)} requests, ${formatCount(simulation.compactions.length)} compactions${points ? ` at ${points}` : ''}; peak ${formatCount(simulation.peakTokens)} tokens; ${formatCount(simulation.input.tokens)} input tokens billed (${formatUsd(simulation.input.usdWithCaching)} with caching, ${formatUsd(simulation.input.usdWithoutCaching)} without).`,
    );
  }
  lines.push(
    '',
    `### Lost (${formatCount(row.fidelity.lost.length)} of ${formatCount(row.fidelity.total)} facts)`,
    '',
  );
  if (row.fidelity.lost.length === 0) lines.push('Nothing.');
  for (const kind of FACT_KINDS) {
    const facts = row.fidelity.lost.filter((fact) => fact.kind === kind);
    if (facts.length === 0) continue;
    lines.push(`- **${kind}** (${formatPercent(row.fidelity.byKind[kind].score)} kept):`);
    for (const fact of facts)
      lines.push(`  - ${code(fact.display)} — message #${formatCount(fact.messageIndex)}`);
  }
  for (const [number, summary] of row.summaries.entries()) {
    lines.push(
      '',
      `### Summary${row.summaries.length > 1 ? ` ${number + 1}` : ''} (${formatCount(summary.tokens)} tokens, messages #${formatCount(summary.span.start)}–#${formatCount(summary.span.end - 1)})`,
      '',
      fenced(summary.body),
    );
  }
  return lines;
}

/** The whole comparison; `title` names the transcript (its file or title). */
export function formatComparisonMarkdown(comparison: Comparison, title: string): string {
  const lines = [
    `# Strategy comparison: ${title}`,
    '',
    `${formatCount(comparison.messages)} messages, ${formatCount(comparison.tokensBefore)} tokens (${comparison.counting}), a ${formatCount(comparison.contextLength)}-token window, priced as ${comparison.model} on ${comparison.provider}. Compactions use the offline summariser.`,
    '',
    `| ${COMPARISON_COLUMNS.map((column) => column.header).join(' | ')} |`,
    `| ${COMPARISON_COLUMNS.map(() => '---').join(' | ')} |`,
  ];
  for (const row of comparison.rows) {
    const cells = comparisonCells(row);
    lines.push(`| ${COMPARISON_COLUMNS.map((column) => cell(cells[column.key])).join(' | ')} |`);
  }
  for (const row of comparison.rows) lines.push('', ...rowSection(row));
  return `${lines.join('\n')}\n`;
}
