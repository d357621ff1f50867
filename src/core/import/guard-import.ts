import { err, type Result } from '../shared/result.ts';
import type { TranscriptFormat } from '../transcript/transcript.ts';
import { createImportError, type ImportError } from './import-error.ts';

/**
 * Runs an import step so that nothing escapes as an exception: the importer is fed arbitrary
 * files, and a bug must surface as an ImportError (marked `cause: 'internal'`), not a crash of
 * the worker. Stack overflows from pathological nesting land here too.
 */
export function guardImport<T>(
  format: TranscriptFormat | 'unknown',
  step: () => Result<T, ImportError>,
): Result<T, ImportError> {
  try {
    return step();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return err(
      createImportError(format, {
        problem: `the importer failed on this input (${reason})`,
        expected: 'a file the importer can read; please report this file',
        cause: 'internal',
      }),
    );
  }
}
