import { describeImport } from '../core/import/describe-import.ts';
import type { ImportResult } from '../core/import/import-result.ts';
import { transcriptFormatLabel } from '../core/import/transcript-format-label.ts';
import type { ImportProgress } from '../core/lab/import-progress.ts';
import type { StrategyName } from '../core/strategies/strategy-names.ts';
import type { TranscriptFormat } from '../core/transcript/transcript.ts';
import type { ImportError } from '../core/import/import-error.ts';
import type { Result } from '../core/shared/result.ts';
import { escapeControlCharacters } from '../core/shared/escape-control-characters.ts';
import { isolateBidi } from '../core/shared/isolate-bidi.ts';
import { sanitizeSessionTitle } from '../core/sessions/sanitize-session-title.ts';
import {
  workerCallback,
  type ComputeClient,
  type ImportedDocument,
  type OpenedDocument,
} from '../io/compute/compute-client.ts';
import { CURRENT_DOCUMENT_ID } from './transcript-state.svelte.ts';

// comlink's Remote type splits a Result into two promises; the reply type is named to join them.
type ImportReply = Result<ImportedDocument, ImportError>;

/**
 * `done`: read, shown and (where there is storage) stored; `not-stored`: read and shown, but the
 * session store refused it, so it is gone after a reload.
 */
export type ImportStatus = 'idle' | 'reading' | 'done' | 'not-stored' | 'error';

/** What storing an import came to. */
export type ImportStorageOutcome =
  { readonly stored: true } | { readonly stored: false; readonly reason: string };
export type FormatChoice = TranscriptFormat | 'auto';

export interface ImportDependencies {
  compute: ComputeClient;
  strategyName: () => StrategyName;
  /** Makes a successful import the current transcript and stores it (null: there is no storage). */
  onImported: (result: ImportResult, opened: OpenedDocument) => Promise<ImportStorageOutcome | null>;
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

  /**
   * Clears the status line once something else is on screen (a stored session, the demo, a replay
   * result). A read still running is left alone: its result will replace what is shown.
   */
  dismiss(): void {
    if (this.busy) return;
    this.status = 'idle';
    this.message = '';
    this.detail = '';
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
    // The file name is the user's: isolated, so a U+202E in it cannot reverse the line around it.
    this.message = `Reading ${isolateBidi(name)}…`;
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
        // The message may quote the file: its control characters are shown, not obeyed.
        this.message = escapeControlCharacters(outcome.error.message);
        this.detail = `${isolateBidi(name)}: nothing was changed.`;
        return false;
      }
      const { result, opened } = outcome.value;
      // Many formats carry no title; the file name says what this is. Titles lose bidi controls.
      const title =
        sanitizeSessionTitle(result.transcript.metadata.title ?? null) ??
        sanitizeSessionTitle(name === 'pasted text' ? 'Pasted transcript' : name);
      if (title !== null) result.transcript.metadata.title = title;
      else delete result.transcript.metadata.title;
      this.message = describeImport(result);
      this.detail = `${isolateBidi(name)} · ${transcriptFormatLabel(result.transcript.metadata.format)}`;
      this.status = 'done';
      if (!opened) return true;
      const described = { message: this.message, detail: this.detail };
      // The transcript is drawn while it is stored; the line says so until the store answers.
      this.detail = `${described.detail} · storing…`;
      const storage = await this.#dependencies.onImported(result, opened);
      if (request !== this.#request) return true;
      if (storage === null) this.detail = described.detail;
      else if (storage.stored) this.detail = `${described.detail} · stored as a session`;
      else {
        this.status = 'not-stored';
        this.message = `${described.message}, but not stored: ${storage.reason}`;
        this.detail = `${described.detail} · shown until the page is reloaded`;
      }
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
