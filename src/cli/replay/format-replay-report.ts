import type { ImportResult } from '../../core/import/import-result.ts';
import { describeTrigger } from '../../core/lab/describe-plan.ts';
import { assertNever } from '../../core/shared/assert-never.ts';
import { formatCount } from '../../core/shared/format-count.ts';
import { plural } from '../../core/shared/plural.ts';
import { formatUsd } from '../../core/usage/format-usd.ts';
import type { ReplayOutcome } from './run-replay.ts';

const PREVIEW_CHARS = 600;
const LISTED_PRUNES = 10;
const LISTED_LOST = 12;

const usd = (value: number | null): string => (value === null ? 'price unknown' : formatUsd(value));

/** The human-readable replay report: what was imported, where the cut falls and why, what was done. */
export function formatReplayReport(imported: ImportResult, outcome: ReplayOutcome): string {
  const { report, plan, strategy } = outcome;
  const lines: string[] = [];
  const tokensLabel = outcome.estimator === 'rough' ? 'rough tokens' : `${outcome.estimator} tokens`;
  lines.push(`Context Lab replay — ${report.format}, strategy ${strategy.name} (${strategy.label})`);
  lines.push(
    `Imported ${formatCount(report.messagesBefore)} messages in ${report.timings.importMs} ms` +
      (imported.warnings.length > 0 ? `, ${plural(imported.warnings.length, 'warning')}` : ''),
  );
  for (const warning of imported.warnings.slice(0, 5)) {
    lines.push(`  ! ${warning.line !== undefined ? `line ${warning.line}: ` : ''}${warning.reason}`);
  }
  lines.push('');
  const trigger = describeTrigger(plan);
  lines.push(
    `Window ${formatCount(plan.windowTokens)} · trigger ${formatCount(report.thresholdTokens)} (${plan.trigger.rule})`,
  );
  lines.push(`${trigger.verdict} ${trigger.details[0] ?? ''}`);
  lines.push('');
  const planned = report.decision.kind === 'not-needed';
  const labels = plan.regionLabels;
  lines.push(`Head   [${report.head.start}, ${report.head.end})   ${labels.head}`);
  lines.push(
    `Middle [${report.middle.start}, ${report.middle.end})   ${labels.middle}${planned ? ' (planned)' : ''}`,
  );
  lines.push(`Tail   [${report.tail.start}, ${report.tail.end})   ${labels.tail}`);
  for (const line of plan.explanation) lines.push(`  · ${line}`);
  if (plan.pruned.length > 0) {
    lines.push('');
    lines.push(`${planned ? 'Would shorten' : 'Shortened'} ${plural(plan.pruned.length, 'tool output')}`);
    for (const entry of plan.pruned.slice(0, LISTED_PRUNES)) {
      lines.push(
        `  #${entry.index} ${entry.kind} (${formatCount(entry.originalChars)} chars) → ${entry.replacement.slice(0, 120)}`,
      );
    }
  }
  for (const warning of plan.after.warnings) lines.push(`  ! ${warning}`);
  lines.push('');
  const { decision } = report;
  switch (decision.kind) {
    case 'not-needed':
      lines.push(
        `No compaction: ${decision.reason} The transcript is unchanged; --force compacts it anyway.`,
      );
      break;
    case 'skipped':
      lines.push(`Compaction skipped: ${decision.reason} The transcript is unchanged.`);
      break;
    case 'refused':
      lines.push(`${decision.reason} The transcript is unchanged.`);
      break;
    case 'compacted': {
      lines.push(
        `Summary (offline summariser${report.summaryBudget ? `, budget ${report.summaryBudget} tokens` : ''}):`,
      );
      const summary = report.summary ?? '(none: this strategy drops without summarising)';
      lines.push(summary.length > PREVIEW_CHARS ? `${summary.slice(0, PREVIEW_CHARS)}…` : summary);
      lines.push('');
      lines.push(
        `After: ${formatCount(report.messagesAfter)} messages, ${formatCount(report.tokensAfter)} ${tokensLabel} ` +
          `(${report.tokensBefore > 0 ? Math.round((1 - report.tokensAfter / report.tokensBefore) * 100) : 0}% saved) ` +
          `in ${report.timings.compressMs} ms`,
      );
      for (const note of outcome.outcome?.notes ?? []) lines.push(`  · ${note}`);
      if (outcome.outcome?.compaction.warning) lines.push(outcome.outcome.compaction.warning);
      if (report.fidelity) {
        const { fidelity } = report;
        lines.push('');
        lines.push(
          `Fidelity: ${(fidelity.score * 100).toFixed(1)}% of ${formatCount(fidelity.total)} facts survived` +
            (fidelity.lost.length > 0
              ? `; lost (first ${Math.min(LISTED_LOST, fidelity.lost.length)}):`
              : '.'),
        );
        for (const fact of fidelity.lost.slice(0, LISTED_LOST))
          lines.push(`  - ${fact.kind} #${fact.message}: ${fact.text}`);
      }
      if (report.ledger) {
        const { ledger } = report;
        lines.push('');
        lines.push(
          `Ledger (${ledger.model}): summary ${formatCount(ledger.summaryInputTokens)} in / ${formatCount(ledger.summaryOutputTokens)} out = ${usd(ledger.summaryUsd)}; ` +
            `cache rewrite ${formatCount(ledger.cacheRewriteTokens)} tokens = ${usd(ledger.cacheRewriteUsd)}; ` +
            `saves ${formatCount(ledger.savedTokensPerTurn)} tokens = ${usd(ledger.savedUsdPerTurn)} per later turn; ` +
            `break-even ${ledger.breakEvenTurn === null ? 'never (or unknown)' : `at turn ${ledger.breakEvenTurn}`}.`,
        );
        for (const note of ledger.notes) lines.push(`  · ${note}`);
      }
      break;
    }
    default:
      assertNever(decision);
  }
  return lines.join('\n');
}
