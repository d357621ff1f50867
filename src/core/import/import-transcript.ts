import type { Result } from '../shared/result.ts';
import { createJsonlImporter } from './create-jsonl-importer.ts';
import type { ImportError } from './import-error.ts';
import type { ImportOptions, ImportResult } from './import-result.ts';

/**
 * Imports a transcript in any supported format, detected from its structure unless
 * `options.format` says which. Never throws: a file that cannot be read is an ImportError,
 * recoverable problems are warnings on the result.
 *
 * @example
 * const result = importTranscript(readFileSync(path, 'utf8'));
 * if (result.ok) console.log(describeImport(result.value));
 * else console.error(result.error.message);
 */
export function importTranscript(
  text: string,
  options: ImportOptions = {},
): Result<ImportResult, ImportError> {
  return importTranscriptChunks([text], options);
}

/** The same, from text arriving in pieces (file slices, a stream); pieces may split lines anywhere. */
export function importTranscriptChunks(
  chunks: Iterable<string>,
  options: ImportOptions = {},
): Result<ImportResult, ImportError> {
  const importer = createJsonlImporter(options);
  for (const chunk of chunks) importer.push(chunk);
  return importer.finish();
}
