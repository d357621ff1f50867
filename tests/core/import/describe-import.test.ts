import { describe, expect, it } from 'vitest';
import { describeImport } from '#core/import/describe-import.ts';
import type { ImportResult } from '#core/import/import-result.ts';
import type { ImportWarning } from '#core/import/import-warning.ts';

function resultWith(
  messages: number,
  warnings: ImportWarning[],
  skippedLines: number,
  skippedParts = 0,
): ImportResult {
  return {
    format: 'claude-code',
    transcript: { messages: [], metadata: { format: 'claude-code', compactionPoints: [] } },
    warnings,
    stats: { messages, skippedLines, skippedParts, bytes: 0, suppressedWarnings: 0 },
  };
}

describe('describeImport', () => {
  it('lists the skipped lines with their reasons', () => {
    const result = resultWith(
      312,
      [
        { kind: 'skipped-line', line: 18, reason: 'is not JSON' },
        { kind: 'skipped-line', line: 40, reason: 'has unknown record type "foo"' },
      ],
      2,
    );
    expect(describeImport(result)).toBe(
      '312 messages imported, 2 lines skipped: line 18 is not JSON; line 40 has unknown record type "foo"',
    );
  });

  it('shortens a long list and counts dropped parts and notes', () => {
    const warnings: ImportWarning[] = [1, 2, 3, 4, 5].map((line) => ({
      kind: 'skipped-line',
      line,
      reason: 'is not JSON',
    }));
    warnings.push({
      kind: 'note',
      line: 9,
      reason: 'has call "c" (Bash) with no result; kept for the sanitiser to stub',
    });
    expect(describeImport(resultWith(1, warnings, 5, 2))).toBe(
      '1 message imported, 5 lines skipped: line 1 is not JSON; line 2 is not JSON; line 3 is not JSON; and 2 more, 2 parts dropped, 1 note',
    );
  });

  it('says only the count when nothing went wrong', () => {
    expect(describeImport(resultWith(1204, [], 0))).toBe('1,204 messages imported');
  });
});
