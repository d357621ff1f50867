import type { TranscriptFormat } from '../transcript/transcript.ts';
import { createImportError, type ImportError } from './import-error.ts';
import { locateJsonSyntaxError } from './locate-json-syntax-error.ts';

/** "OpenAI Chat JSON: line 7 is not valid JSON at column 12 (expected one JSON document)". */
export function jsonSyntaxImportError(
  format: TranscriptFormat | 'unknown',
  text: string,
  parserMessage: string,
): ImportError {
  const at = locateJsonSyntaxError(text, parserMessage);
  return createImportError(format, {
    ...(at !== undefined ? { line: at.line } : {}),
    problem:
      at !== undefined
        ? `is not valid JSON at column ${at.column}`
        : `the document is not valid JSON (${parserMessage})`,
    expected: format === 'unknown' ? 'one JSON document, or one JSON object per line' : 'one JSON document',
  });
}
