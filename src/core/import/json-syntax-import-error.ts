import type { TranscriptFormat } from '../transcript/transcript.ts';
import { createImportError, type ImportError } from './import-error.ts';
import { locateJsonSyntaxError } from './locate-json-syntax-error.ts';

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
