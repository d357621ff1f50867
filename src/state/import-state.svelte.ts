import { describeImport } from '../core/import/describe-import.ts';
import { transcriptFormatLabel } from '../core/import/transcript-format-label.ts';
import type { ImportProgress } from '../core/lab/import-progress.ts';
import type { StrategyName } from '../core/strategies/strategy-names.ts';
import type { TranscriptFormat } from '../core/transcript/transcript.ts';
import { escapeControlCharacters } from '../core/shared/escape-control-characters.ts';
import { formatCount } from '../core/shared/format-count.ts';
import { isolateBidi } from '../core/shared/isolate-bidi.ts';
import { sanitizeSessionTitle } from '../core/sessions/sanitize-session-title.ts';
import {
  workerCallback,
  type ComputeClient,
  type ImportReply,
  type ImportSummary,
  type OpenedDocument,
} from '../io/compute/compute-client.ts';
import { CURRENT_DOCUMENT_ID } from './transcript-state.svelte.ts';

/**
 * `reading`: the worker parses the file; `storing`: it is drawn and being written to the session
 * store; `done`: read, shown and (where there is storage) stored; `not-stored`: read and shown,
 * but not stored (refused, or cancelled while storing), so it is gone after a reload;
 * `cancelled`: cancelled while reading, nothing changed.
 */
export type ImportStatus = 'idle' | 'reading' | 'storing' | 'done' | 'not-stored' | 'cancelled' | 'error';

/** What storing an import came to. */
export type ImportStorageOutcome =
  { readonly stored: true } | { readonly stored: false; readonly reason: string };
export type FormatChoice = TranscriptFormat | 'auto';

/** What the page gets to store an adopted import: a cancel token and a progress callback. */
export interface ImportStoring {
  readonly cancelToken: string;
  readonly onProgress: (stored: number) => void;
}

export interface ImportDependencies {
  compute: ComputeClient;
  strategyName: () => StrategyName;
  /**
   * Makes a successful import the current transcript (drawn from the worker's document) and
   * stores it from there (null: there is no storage).
   */
  onImported: (
    summary: ImportSummary,
    opened: OpenedDocument,
    title: string | null,
    storing: ImportStoring,
  ) => Promise<ImportStorageOutcome | null>;
}

/**
 * Importing a transcript (flow 3): a file read in the worker with progress, or pasted text.
 * The worker keeps the transcript; it opens it only when the import succeeded, so a failed
 * import leaves what was shown and stored untouched, and the status line carries the importer's
 * one-line error (format, line or field, what was expected). Then the transcript is drawn and
 * stored, with progress, by the worker. Cancel works throughout: while reading nothing changes;
 * while storing, nothing is kept and the transcript stays on screen, marked not stored.
 */
export class ImportState {
  readonly #dependencies: ImportDependencies;
  #request = 0;
  #cancelToken: string | null = null;

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
    return this.status === 'reading' || this.status === 'storing';
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
      if (request === this.#request && this.status === 'reading') this.progress = progress;
    });
    const options = this.#options(request);
    return this.#finish(request, name, () =>
      this.#dependencies.compute.run<ImportReply>((api) => api.importFile(file, options, onProgress)),
    );
  }

  async importText(text: string): Promise<boolean> {
    const request = this.#start('pasted text');
    const options = this.#options(request);
    return this.#finish(request, 'pasted text', () =>
      this.#dependencies.compute.run<ImportReply>((api) => api.importText(text, options)),
    );
  }

  /** Cancels the import under way, reading or storing; the worker cleans up after itself. */
  async cancel(): Promise<void> {
    const token = this.#cancelToken;
    if (!this.busy || token === null) return;
    await this.#dependencies.compute.run((api) => api.cancel(token));
  }

  #options(request: number) {
    return {
      ...(this.format === 'auto' ? {} : { format: this.format }),
      openAs: CURRENT_DOCUMENT_ID,
      strategy: this.#dependencies.strategyName(),
      cancelToken: this.#tokenFor(request),
    };
  }

  #tokenFor(request: number): string {
    return `import-${request}`;
  }

  #start(name: string): number {
    const request = ++this.#request;
    this.#cancelToken = this.#tokenFor(request);
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
        const cancelled = outcome.error.type === 'ImportCancelled';
        this.status = cancelled ? 'cancelled' : 'error';
        // The message may quote the file: its control characters are shown, not obeyed.
        this.message = cancelled ? 'Import cancelled' : escapeControlCharacters(outcome.error.message);
        this.detail = `${isolateBidi(name)}: nothing was changed.`;
        return false;
      }
      const { result, opened } = outcome.value;
      // Many formats carry no title; the file name says what this is. Titles lose bidi controls.
      const title =
        sanitizeSessionTitle(result.metadata.title ?? null) ??
        sanitizeSessionTitle(name === 'pasted text' ? 'Pasted transcript' : name);
      this.message = describeImport(result);
      this.detail = `${isolateBidi(name)} · ${transcriptFormatLabel(result.metadata.format)}`;
      if (!opened) {
        this.status = 'done';
        return true;
      }
      const described = { message: this.message, detail: this.detail };
      // The transcript is drawn while it is stored; the line says so until the store answers.
      this.status = 'storing';
      this.detail = `${described.detail} · storing…`;
      const total = opened.count;
      this.progress = { bytes: 0, totalBytes: 0, messages: total, stored: 0 };
      const storage = await this.#dependencies.onImported(result, opened, title, {
        cancelToken: this.#tokenFor(request),
        onProgress: (stored) => {
          if (request !== this.#request || this.status !== 'storing') return;
          this.progress = { bytes: 0, totalBytes: 0, messages: total, stored };
          this.detail = `${described.detail} · storing ${formatCount(stored)} / ${formatCount(total)} messages…`;
        },
      });
      if (request !== this.#request) return true;
      if (storage === null) {
        this.status = 'done';
        this.detail = described.detail;
      } else if (storage.stored) {
        this.status = 'done';
        this.detail = `${described.detail} · stored as a session`;
      } else {
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
      if (request === this.#request) {
        this.progress = null;
        this.#cancelToken = null;
      }
    }
  }
}
