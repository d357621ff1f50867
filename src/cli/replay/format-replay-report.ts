import { formatCount } from '../../core/shared/format-count.ts';
import type { ImportResult } from '../../core/import/import-result.ts';
import type { ReplayOutcome } from './run-replay.ts';

const PREVIEW_CHARS = 600;

/** The human-readable replay report: what was imported, where the cut fell and why, the result. */
export function formatReplayReport(imported: ImportResult, outcome: ReplayOutcome): string {
  const { report, plan, result } = outcome;
  const lines: string[] = [];
  const tokensLabel = outcome.estimator === 'rough' ? 'rough tokens' : `${outcome.estimator} tokens`;
  lines.push(`Context Lab replay — ${report.format}, preset ${report.preset}`);
  lines.push(
    `Imported ${formatCount(report.messagesBefore)} messages in ${report.timings.importMs} ms` +
      (imported.warnings.length > 0 ? `, ${imported.warnings.length} warning(s)` : ''),
  );
  for (const warning of imported.warnings.slice(0, 5)) {
    lines.push(`  ! ${warning.line !== undefined ? `line ${warning.line}: ` : ''}${warning.reason}`);
  }
  lines.push('');
  lines.push(
    `Window ${formatCount(plan.thresholds.contextLength)} · threshold ${formatCount(report.thresholdTokens)} ` +
      `(${Math.round(plan.thresholds.effectiveThresholdPercent * 100)}%) · tail budget ${formatCount(report.tailTokenBudget)}`,
  );
  lines.push(
    `Before: ${formatCount(report.tokensBefore)} ${tokensLabel} → ` +
      (report.shouldCompress
        ? 'over the threshold: compaction would fire now'
        : `no automatic compaction (${plan.reason})`),
  );
  lines.push('');
  lines.push(`Head   [${report.head.start}, ${report.head.end})   kept verbatim`);
  lines.push(`Middle [${report.middle.start}, ${report.middle.end})   summarised`);
  lines.push(`Tail   [${report.tail.start}, ${report.tail.end})   kept verbatim`);
  for (const step of result.boundaries?.steps ?? []) lines.push(`  · ${JSON.stringify(step)}`);
  lines.push('');
  lines.push(`Phase 1 pruned ${report.prunedCount} tool output(s)`);
  for (const pruned of result.pruned.slice(0, 10)) {
    lines.push(
      `  #${pruned.index} ${pruned.kind} (${formatCount(pruned.originalChars)} chars) → ${pruned.replacement.slice(0, 120)}`,
    );
  }
  if (result.skipped) {
    lines.push('');
    lines.push(
      `Compression skipped: ${result.skipped}` +
        (result.raised ? ` (${result.raised.function}: ${result.raised.exception})` : ''),
    );
  } else {
    lines.push('');
    lines.push(
      `Summary (offline summariser, budget ${report.summaryBudget ?? '?'} tokens, role ${result.summaryRole ?? '?'}` +
        `${result.mergedIntoTail ? ', merged into the tail' : ''}):`,
    );
    const summary = report.summary ?? '';
    lines.push(summary.length > PREVIEW_CHARS ? `${summary.slice(0, PREVIEW_CHARS)}…` : summary);
    lines.push('');
    lines.push(
      `After: ${formatCount(report.messagesAfter)} messages, ${formatCount(report.tokensAfter)} ${tokensLabel} ` +
        `(${report.tokensBefore > 0 ? Math.round((1 - report.tokensAfter / report.tokensBefore) * 100) : 0}% saved) ` +
        `in ${report.timings.compressMs} ms`,
    );
    if (result.warning) lines.push(result.warning);
  }
  return lines.join('\n');
}
