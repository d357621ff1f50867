import { formatCount } from '../shared/format-count.ts';
import { plural } from '../shared/plural.ts';
import type { ImportResult } from './import-result.ts';
import { formatImportWarning } from './import-warning.ts';

/** Reasons listed in the one-line summary before "and N more". */
const LISTED_REASONS = 3;

/**
 * One line for the import status: `312 messages imported, 2 lines skipped: line 18 is not
 * JSON; line 40 has unknown record type "foo"`, plus counts of dropped parts and other warnings.
 */
export function describeImport(result: Pick<ImportResult, 'stats' | 'warnings'>): string {
  const { stats, warnings } = result;
  const clauses = [`${plural(stats.messages, 'message')} imported`];
  if (stats.skippedLines > 0) {
    const reasons = warnings.filter((warning) => warning.kind === 'skipped-line').map(formatImportWarning);
    clauses.push(
      `${plural(stats.skippedLines, 'line')} skipped: ${listReasons(reasons, stats.skippedLines)}`,
    );
  }
  if (stats.skippedParts > 0) clauses.push(`${plural(stats.skippedParts, 'part')} dropped`);
  const others = warnings.filter((warning) => warning.kind === 'repaired' || warning.kind === 'note').length;
  if (others > 0) clauses.push(`${plural(others, 'note')}`);
  return clauses.join(', ');
}

function listReasons(reasons: readonly string[], total: number): string {
  const listed = reasons.slice(0, LISTED_REASONS).join('; ');
  const more = total - Math.min(reasons.length, LISTED_REASONS);
  return more > 0 ? `${listed}; and ${formatCount(more)} more` : listed;
}
