import type { ImportContext } from './import-context.ts';
import type { SourceLocation } from './import-warning.ts';
import type { TranscriptDraft } from './transcript-draft.ts';

/**
 * The per-format half of a JSONL import: it is handed each line's JSON object in order and
 * keeps only what it has converted so far, never the raw records.
 */
export interface JsonlRecordParser {
  acceptRecord(record: Record<string, unknown>, at: SourceLocation): void;
  /** Messages built so far, for progress reports. */
  readonly messageCount: number;
  /** Assembles the transcript once every line has been read. */
  finish(): TranscriptDraft;
}

export type JsonlRecordParserFactory = (context: ImportContext) => JsonlRecordParser;
