import { createImportError, type ImportError } from './import-error.ts';
import { transcriptFormatExpectation } from './transcript-format-label.ts';
import type { LookalikeMatch } from './unsupported-lookalikes.ts';

/** "Transcript import: the file looks like a Qwen Code session; not supported yet (expected …)". */
export function lookalikeImportError(match: LookalikeMatch): ImportError {
  return createImportError('unknown', {
    problem: `the file looks like ${match.name} (${match.reason}); not supported yet${match.hint ? `: ${match.hint}` : ''}`,
    expected: transcriptFormatExpectation('unknown'),
  });
}

/** Whether a lookalike explains the input better than the best supported detection. */
export function lookalikeWins(
  match: LookalikeMatch | null,
  confidence: number | undefined,
): match is LookalikeMatch {
  return match !== null && (confidence === undefined || match.confidence > confidence);
}
