import { describeImport } from '../core/import/describe-import.ts';
import type { ImportResult } from '../core/import/import-result.ts';
import { transcriptFormatLabel } from '../core/import/transcript-format-label.ts';
import type { ImportProgress } from '../core/lab/import-progress.ts';
import type { StrategyName } from '../core/strategies/strategy-names.ts';
import type { TranscriptFormat } from '../core/transcript/transcript.ts';
import type { ImportError } from '../core/import/import-error.ts';
import type { Result } from '../core/shared/result.ts';
import {
  workerCallback,
  type ComputeClient,
  type ImportedDocument,
  type OpenedDocument,
} from '../io/compute/compute-client.ts';
import { CURRENT_DOCUMENT_ID } from './transcript-state.svelte.ts';

// comlink's Remote type splits a Result into two promises; the reply type is named to join them.
type ImportReply = Result<ImportedDocument, ImportError>;

export type ImportStatus = 'idle' | 'reading' | 'done' | 'error';
export type FormatChoice = TranscriptFormat | 'auto';

export interface ImportDependencies {
  compute: ComputeClient;
  strategyName: () => StrategyName;
  /** Makes a successful import the current transcript (and stores it); returns a note for the status. */
  onImported: (result: ImportResult, opened: OpenedDocument) => Promise<string | null>;
}

/**
 * Importing a transcript (flow 3): a file read in the worker with progress, or pasted text.
 * The worker opens the transcript only when the import succeeded, so a failed import leaves
 * what was shown and stored untouched; the status line then carries the importer's one-line
 * error, which names the format, the line or field, and what was expected.
 */
export class ImportState {
  readonly #dependencies: ImportDependencies;
  #request = 0;

  status = $state<ImportStatus>('idle');
  /** The import-status line: the result ("312 messages imported, …") or the error. */
  message = $state('');
  /** A second line: file name, detected format, storage notes. */
  detail = $state('');
  progress = $state.raw<ImportProgress | null>(null);
  format = $state<FormatChoice>('auto');

  constructor(dependencies: ImportDependencies) {
    this.#dependencies = dependencies;
  }

  get busy(): boolean {
    return this.status === 'reading';
  }

  setFormat(format: FormatChoice): void {
    this.format = format;
  }

  async importFile(file: File | Blob, name = file instanceof File ? file.name : 'file'): Promise<boolean> {
    const request = this.#start(name);
    this.progress = { bytes: 0, totalBytes: file.size, messages: 0 };
    const onProgress = workerCallback((progress: ImportProgress) => {
      if (request === this.#request) this.progress = progress;
    });
    return this.#finish(request, name, () =>
      this.#dependencies.compute.run<ImportReply>((api) => api.importFile(file, this.#options(), onProgress)),
    );
  }

  async importText(text: string): Promise<boolean> {
    const request = this.#start('pasted text');
    return this.#finish(request, 'pasted text', () =>
      this.#dependencies.compute.run<ImportReply>((api) => api.importText(text, this.#options())),
    );
  }

  #options() {
    return {
      ...(this.format === 'auto' ? {} : { format: this.format }),
      openAs: CURRENT_DOCUMENT_ID,
      strategy: this.#dependencies.strategyName(),
    };
  }

  #start(name: string): number {
    const request = ++this.#request;
    this.status = 'reading';
    this.message = `Reading ${name}…`;
    this.detail = '';
    this.progress = null;
    return request;
  }

  async #finish(request: number, name: string, run: () => Promise<ImportReply>): Promise<boolean> {
    try {
      const outcome = await run();
      if (request !== this.#request) return false;
      if (!outcome.ok) {
        this.status = 'error';
        this.message = outcome.error.message;
        this.detail = `${name}: nothing was changed.`;
        return false;
      }
      const { result, opened } = outcome.value;
      // Many formats carry no title; the file name says what this is.
      result.transcript.metadata.title ??= name === 'pasted text' ? 'Pasted transcript' : name;
      this.message = describeImport(result);
      this.detail = `${name} · ${transcriptFormatLabel(result.transcript.metadata.format)}`;
      this.status = 'done';
      const note = opened ? await this.#dependencies.onImported(result, opened) : null;
      if (note && request === this.#request) this.detail = `${this.detail} · ${note}`;
      return true;
    } catch (error) {
      if (request !== this.#request) return false;
      this.status = 'error';
      this.message = `Import failed: ${error instanceof Error ? error.message : String(error)}`;
      return false;
    } finally {
      if (request === this.#request) this.progress = null;
    }
  }
}
