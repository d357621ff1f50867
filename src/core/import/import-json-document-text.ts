import type { TranscriptFormat } from '../transcript/transcript.ts';
import { err, type Result } from '../shared/result.ts';
import { safeParseJson } from '../shared/safe-parse-json.ts';
import { createImportContext, type ImportContext } from './import-context.ts';
import { createImportError, type ImportError } from './import-error.ts';
import type { ImportResult } from './import-result.ts';
import type { JsonDocumentConverter } from './json-document-converter.ts';
import { finishImport } from './finish-import.ts';
import { guardImport } from './guard-import.ts';
import { locateJsonSyntaxError, stripByteOrderMark } from './locate-json-syntax-error.ts';
import { transcriptFormatExpectation } from './transcript-format-label.ts';
import { utf8ByteLength } from './utf8-byte-length.ts';

/** Parses a whole JSON document and converts it with one format's converter. */
export function importJsonDocumentText(
  text: string,
  format: TranscriptFormat,
  converter: JsonDocumentConverter,
): Result<ImportResult, ImportError> {
  return guardImport(format, () => {
    const source = stripByteOrderMark(text);
    const parsed = safeParseJson(source);
    if (!parsed.ok) return err(jsonSyntaxImportError(format, source, parsed.error.message));
    return importJsonDocumentValue(
      parsed.value,
      format,
      converter,
      createImportContext(),
      utf8ByteLength(text),
    );
  });
}

/** Converts an already parsed document. */
export function importJsonDocumentValue(
  value: unknown,
  format: TranscriptFormat,
  converter: JsonDocumentConverter,
  context: ImportContext,
  bytes: number,
): Result<ImportResult, ImportError> {
  const converted = converter(value, context);
  if (!converted.ok) {
    return err(
      createImportError(format, {
        ...(converted.error.path !== undefined ? { path: converted.error.path } : {}),
        problem: converted.error.problem,
        expected: transcriptFormatExpectation(format),
      }),
    );
  }
  return finishImport(converted.value, context, format, bytes);
}

/** "OpenAI Chat JSON: line 7 is not valid JSON (expected one JSON document)". */
export function jsonSyntaxImportError(
  format: TranscriptFormat | 'unknown',
  text: string,
  parserMessage: string,
): ImportError {
  const line = locateJsonSyntaxError(text, parserMessage);
  return createImportError(format, {
    ...(line !== undefined ? { line } : {}),
    problem: line !== undefined ? 'is not valid JSON' : `the document is not valid JSON (${parserMessage})`,
    expected: format === 'unknown' ? 'one JSON document, or one JSON object per line' : 'one JSON document',
  });
}
