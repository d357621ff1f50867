import type { Result } from '../../shared/result.ts';
import type { ImportContext } from '../import-context.ts';
import type { DocumentProblem, JsonDocumentConverter } from '../json-document-converter.ts';
import type { JsonlRecordParserFactory } from '../jsonl-record-parser.ts';
import type { TranscriptDraft } from '../transcript-draft.ts';

/** What a detector saw: how sure it is (0–1) and what in the structure gave the format away. */
export interface FormatEvidence {
  confidence: number;
  reason: string;
}

/**
 * How a format recognises itself, from structure only (never a file name). Each detector
 * answers for its own format; the classifiers ask every format and take the most confident
 * answer, earlier registry entries winning ties.
 */
export interface FormatDetectors {
  /** One JSONL line's object (JSONL formats; also used on a document holding such records). */
  readonly record?: (record: Record<string, unknown>) => FormatEvidence | null;
  /** A whole parsed JSON document, object or array. */
  readonly document?: (value: unknown) => FormatEvidence | null;
  /** The beginning of a text that is not JSON (up to `TEXT_DETECTION_CHARS`). */
  readonly text?: (head: string) => FormatEvidence | null;
}

/** The per-format half of importing a whole non-JSON text (Markdown logs). */
export type TextConverter = (
  text: string,
  context: ImportContext,
) => Result<TranscriptDraft, DocumentProblem>;

interface FormatSpecBase<Id extends string> {
  readonly id: Id;
  /** The name a person reads: in the format menu, errors and the import status. */
  readonly label: string;
  /** What a file of this format looks like, for the "expected …" part of an error. */
  readonly expectation: string;
  /** File name endings the file picker offers. Detection never looks at names. */
  readonly fileExtensions: readonly string[];
  readonly detect: FormatDetectors;
  /** Our own export: read back exactly as written, problems reported but never repaired. */
  readonly lossless?: boolean;
}

/** One JSON object per line, parsed as it streams in. */
export interface JsonlFormatSpec<Id extends string = string> extends FormatSpecBase<Id> {
  readonly layout: 'jsonl';
  readonly parse: JsonlRecordParserFactory;
}

/** One JSON document, parsed whole. */
export interface DocumentFormatSpec<Id extends string = string> extends FormatSpecBase<Id> {
  readonly layout: 'document';
  readonly parse: JsonDocumentConverter;
}

/** A text that is not JSON (Aider's Markdown history), read whole. */
export interface TextFormatSpec<Id extends string = string> extends FormatSpecBase<Id> {
  readonly layout: 'text';
  readonly parse: TextConverter;
}

/**
 * Everything Context Lab knows about one import format. A format is one folder under
 * `formats/` exporting one of these, plus one line in `transcript-format-registry.ts`; the
 * format menu, labels, error texts, detection and the CLI's `--format` all derive from it.
 */
export type TranscriptFormatSpec<Id extends string = string> =
  JsonlFormatSpec<Id> | DocumentFormatSpec<Id> | TextFormatSpec<Id>;
