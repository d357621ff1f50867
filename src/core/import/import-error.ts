import type { TranscriptFormat } from '../transcript/transcript.ts';
import { formatSourceLocation } from './import-warning.ts';
import { transcriptFormatLabel } from './transcript-format-label.ts';

/**
 * Why a file could not be imported at all. `message` is one line a person can act on:
 * the format tried, where it went wrong and what was expected, e.g.
 * `Claude Code JSONL: line 18 is not JSON (expected one JSON object per line)`.
 */
export interface ImportError {
  type: 'ImportError';
  format: TranscriptFormat | 'unknown';
  line?: number;
  path?: string;
  expected: string;
  message: string;
  /** Set when the importer itself failed (a bug), so tests can tell it from bad input. */
  cause?: 'internal';
}

export interface ImportErrorDetails {
  line?: number;
  path?: string;
  /** What is wrong, phrased after the location: "is not JSON", "has no messages". */
  problem: string;
  expected: string;
  cause?: 'internal';
}

/** Builds an ImportError whose message names the format, the location and the expectation. */
export function createImportError(
  format: TranscriptFormat | 'unknown',
  details: ImportErrorDetails,
): ImportError {
  const location = formatSourceLocation(details);
  const subject = location ? `${location} ${details.problem}` : details.problem;
  const error: ImportError = {
    type: 'ImportError',
    format,
    expected: details.expected,
    message: `${transcriptFormatLabel(format)}: ${subject} (expected ${details.expected})`,
  };
  if (details.line !== undefined) error.line = details.line;
  if (details.path !== undefined) error.path = details.path;
  if (details.cause) error.cause = details.cause;
  return error;
}
