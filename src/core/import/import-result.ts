import type { Transcript, TranscriptFormat } from '../transcript/transcript.ts';
import type { ImportWarning } from './import-warning.ts';

export interface ImportStats {
  messages: number;
  /** Source lines (JSONL) or top-level entries dropped whole. */
  skippedLines: number;
  /** Content blocks, tool results or fields dropped inside otherwise usable records. */
  skippedParts: number;
  /** UTF-8 size of the input. */
  bytes: number;
  /** Warnings not listed because the list hit its cap (they are still counted above). */
  suppressedWarnings: number;
}

export interface ImportResult {
  /** The parser that read the file (`transcript.metadata.format` keeps the original source format). */
  format: TranscriptFormat;
  transcript: Transcript;
  warnings: ImportWarning[];
  stats: ImportStats;
}

export interface ImportOptions {
  /** Skip detection and read the input as this format. */
  format?: TranscriptFormat;
}
