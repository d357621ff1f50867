import { createImportError, type ImportError } from '../core/import/import-error.ts';
import { createJsonlImporter } from '../core/import/create-jsonl-importer.ts';
import type { ImportOptions, ImportResult } from '../core/import/import-result.ts';
import type { ImportProgress } from '../core/lab/import-progress.ts';
import { err, type Result } from '../core/shared/result.ts';
import { ENCODING_SNIFF_BYTES, sniffTextEncoding } from '../core/import/sniff-text-encoding.ts';

/** The page cancelled the import while the file was being read. */
export interface ImportCancelledError {
  readonly type: 'ImportCancelled';
  readonly message: string;
}

/** Progress is reported at most this often, so a 100 MB file does not flood the page. */
const PROGRESS_INTERVAL_MS = 100;

/**
 * Reads a file in the worker, chunk by chunk through `file.stream()` and a TextDecoderStream,
 * feeding the streaming importer: JSONL is parsed as it arrives, a JSON document is parsed
 * whole at the end. The encoding comes from the file's first bytes (UTF-16 LE/BE by byte order
 * mark or zero-byte pattern, UTF-8 otherwise; a byte order mark is dropped). Never throws: an
 * unreadable file is an ImportError like a malformed one. An aborted `signal` stops the reading
 * at the next chunk.
 */
export async function importBlob(
  file: Blob,
  options: ImportOptions,
  onProgress?: (progress: ImportProgress) => void,
  signal?: AbortSignal,
): Promise<Result<ImportResult, ImportError | ImportCancelledError>> {
  const importer = createJsonlImporter(options);
  const totalBytes = file.size;
  let lastReport = 0;
  // Bytes of the file read so far: what the progress bar measures against the file's size.
  let bytesRead = 0;
  try {
    const head = new Uint8Array(await file.slice(0, ENCODING_SNIFF_BYTES).arrayBuffer());
    const counted = file.stream().pipeThrough(
      new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
        transform(chunk, controller) {
          bytesRead += chunk.byteLength;
          controller.enqueue(chunk);
        },
      }),
    );
    const reader = counted.pipeThrough(new TextDecoderStream(sniffTextEncoding(head))).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (signal?.aborted) {
        await reader.cancel().catch(() => undefined);
        return err({ type: 'ImportCancelled', message: 'The import was cancelled; nothing was changed.' });
      }
      importer.push(value);
      const now = performance.now();
      if (onProgress && now - lastReport >= PROGRESS_INTERVAL_MS) {
        lastReport = now;
        onProgress({ bytes: bytesRead, totalBytes, messages: importer.progress.messages });
      }
    }
  } catch (error) {
    return err(
      createImportError(options.format ?? 'unknown', {
        problem: `the file could not be read (${error instanceof Error ? error.message : String(error)})`,
        expected: 'a readable text file',
      }),
    );
  }
  const result = importer.finish();
  onProgress?.({
    bytes: bytesRead,
    totalBytes,
    messages: result.ok ? result.value.stats.messages : 0,
  });
  return result;
}
