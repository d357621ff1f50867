import type { TranscriptFormat } from '../transcript/transcript.ts';
import { assertNever } from '../shared/assert-never.ts';
import { err, type Result } from '../shared/result.ts';
import { isPlainObject } from '../shared/safe-parse-json.ts';
import { finishImport } from './finish-import.ts';
import { transcriptFormatSpec } from './formats/transcript-format-registry.ts';
import type { ImportContext } from './import-context.ts';
import { createImportError, type ImportError } from './import-error.ts';
import type { ImportResult } from './import-result.ts';
import { childPath, type SourceLocation } from './import-warning.ts';
import type { DocumentProblem } from './json-document-converter.ts';
import type { TranscriptDraft } from './transcript-draft.ts';

/**
 * Imports a parsed JSON document in the given format. A JSONL format given a document reads
 * its records from it: each element of an array, or the object itself.
 */
export function importParsedDocument(
  value: unknown,
  format: TranscriptFormat,
  context: ImportContext,
  bytes: number,
  wholeDocumentAt: SourceLocation,
): Result<ImportResult, ImportError> {
  const spec = transcriptFormatSpec(format);
  switch (spec.layout) {
    case 'document':
      return finishConverted(spec.parse(value, context), format, context, bytes);
    case 'text':
      return err(
        createImportError(format, {
          problem: 'the file is JSON, not this text format',
          expected: spec.expectation,
        }),
      );
    case 'jsonl': {
      const recordParser = spec.parse(context);
      if (Array.isArray(value)) {
        value.forEach((item: unknown, index) => {
          const at = { path: childPath('$', index) };
          if (isPlainObject(item)) recordParser.acceptRecord(item, at);
          else context.skipLine(at, 'is not a JSON object');
        });
      } else if (isPlainObject(value)) recordParser.acceptRecord(value, wholeDocumentAt);
      else context.skipLine(wholeDocumentAt, 'is not a JSON object or array');
      return finishImport(recordParser.finish(), context, format, bytes);
    }
    default:
      return assertNever(spec);
  }
}

/** Imports a whole text (not JSON) in a text format. */
export function importParsedText(
  text: string,
  format: TranscriptFormat,
  context: ImportContext,
  bytes: number,
): Result<ImportResult, ImportError> {
  const spec = transcriptFormatSpec(format);
  if (spec.layout !== 'text') {
    return err(createImportError(format, { problem: 'the file is not JSON', expected: spec.expectation }));
  }
  return finishConverted(spec.parse(text, context), format, context, bytes);
}

function finishConverted(
  converted: Result<TranscriptDraft, DocumentProblem>,
  format: TranscriptFormat,
  context: ImportContext,
  bytes: number,
): Result<ImportResult, ImportError> {
  if (!converted.ok) {
    return err(
      createImportError(format, {
        ...(converted.error.path !== undefined ? { path: converted.error.path } : {}),
        problem: converted.error.problem,
        expected: transcriptFormatSpec(format).expectation,
      }),
    );
  }
  return finishImport(converted.value, context, format, bytes);
}
