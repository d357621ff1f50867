import { persistedFilePath, type ToolResultStorage } from '../../core/persistence/tool-result-storage.ts';
import { err, ok, type Result } from '../../core/shared/result.ts';
import { messageText, type Message } from '../../core/transcript/message.ts';
import type { AppDb } from './app-db.ts';
import type { PersistedOutputRow } from './persisted-output-row.ts';

/** The directory-like prefix the model sees in `Full output saved to: …`. */
export const PERSISTED_OUTPUTS_LOCATION = 'indexeddb://context-lab/persisted-outputs';

/** Larger results are refused, so core truncates them inline as after a failed sandbox write. */
export const MAXIMUM_PERSISTED_OUTPUT_CHARS = 50_000_000;

export type PersistedOutputUnit = 'characters' | 'lines';

export interface PersistedOutputSlice {
  fileName: string;
  content: string;
  /** Where the slice starts, in `unit`s from 0. */
  offset: number;
  unit: PersistedOutputUnit;
  /** UTF-16 code units of the whole output. */
  totalLength: number;
  totalLines: number;
  /** More follows the slice. */
  hasMore: boolean;
}

export interface PersistedOutputNotFoundError {
  readonly type: 'PersistedOutputNotFound';
  readonly fileName: string;
}

interface PendingOutput {
  readonly content: string;
  readonly createdAt: number;
}

/** What one transaction flushed; handed back to `forgetFlushed` once it has committed. */
export type FlushedOutputs = ReadonlyArray<readonly [fileName: string, output: PendingOutput]>;

/**
 * Core's `ToolResultStorage` over IndexedDB (hermes-reference §10 writes to a sandbox file).
 *
 * Why `write` only queues: core's contract is synchronous — `maybePersistToolResult` must know
 * at once whether the preview may point at a stored file — while IndexedDB is asynchronous. So
 * `write` keeps the content in memory and answers true, and the repository writes it in the
 * same transaction that appends the tool message whose preview names it. Either both are
 * stored or neither: a reload can never show a preview pointing at a missing file, nor leave
 * an orphaned file. Until then `readPersistedOutput` serves the pending copy.
 *
 * Only outputs named by the appended messages are flushed, so two sessions running in one tab
 * each store their own; an output nothing ever cites stays pending until `discardPending`.
 * File names are unique across the database, like files in Hermes' one results directory: a
 * second result with the same tool call id overwrites the first.
 */
export class IndexedDbToolResultStorage implements ToolResultStorage {
  readonly location = PERSISTED_OUTPUTS_LOCATION;
  readonly #db: AppDb;
  readonly #now: () => number;
  readonly #maximumChars: number;
  readonly #pending = new Map<string, PendingOutput>();

  constructor(db: AppDb, options: { now?: () => number; maximumChars?: number } = {}) {
    this.#db = db;
    this.#now = options.now ?? Date.now;
    this.#maximumChars = options.maximumChars ?? MAXIMUM_PERSISTED_OUTPUT_CHARS;
  }

  write(fileName: string, content: string): boolean {
    if (content.length > this.#maximumChars) return false;
    this.#pending.set(fileName, { content, createdAt: this.#now() });
    return true;
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Drops queued outputs that no stored message will cite (a turn that was abandoned). */
  discardPending(): void {
    this.#pending.clear();
  }

  /**
   * Writes the pending outputs that `messages` cite, as rows of `sessionId`. Must run inside
   * the caller's read-write transaction over `persistedOutputs`; the entries stay pending
   * until `forgetFlushed` is called after that transaction commits, so a rolled-back append
   * can be retried without losing them.
   */
  async flushCitedBy(sessionId: string, messages: readonly Message[]): Promise<FlushedOutputs> {
    if (this.#pending.size === 0 || messages.length === 0) return [];
    const texts = messages.map((message) => ({ message, text: messageText(message) }));
    const flushed: Array<readonly [string, PendingOutput]> = [];
    const rows: PersistedOutputRow[] = [];
    for (const [fileName, output] of this.#pending) {
      const path = persistedFilePath(this, fileName);
      const citing = texts.find(({ text }) => text.includes(path));
      if (citing === undefined) continue;
      const toolCallId = citing.message.tool_call_id;
      rows.push({
        fileName,
        sessionId,
        toolCallId: typeof toolCallId === 'string' ? toolCallId : null,
        content: output.content,
        createdAt: output.createdAt,
      });
      flushed.push([fileName, output]);
    }
    if (rows.length > 0) await this.#db.persistedOutputs.bulkPut(rows);
    return flushed;
  }

  /**
   * Forgets entries a committed transaction stored. An entry rewritten while the transaction
   * ran (same name, newer content) is a different object and stays pending.
   */
  forgetFlushed(flushed: FlushedOutputs): void {
    for (const [fileName, output] of flushed) {
      if (this.#pending.get(fileName) === output) this.#pending.delete(fileName);
    }
  }

  /**
   * A slice of a stored output: `limit` characters (UTF-16 code units) or lines from
   * `offset`, counted from 0 — Hermes' 1-based `read_file(offset=N)` is offset N−1 in lines.
   * Accepts the bare file name or the full path shown to the model.
   */
  async readPersistedOutput(
    fileNameOrPath: string,
    offset: number,
    limit: number,
    unit: PersistedOutputUnit = 'characters',
  ): Promise<Result<PersistedOutputSlice, PersistedOutputNotFoundError>> {
    const prefix = `${this.location}/`;
    const fileName = fileNameOrPath.startsWith(prefix) ? fileNameOrPath.slice(prefix.length) : fileNameOrPath;
    const content =
      this.#pending.get(fileName)?.content ?? (await this.#db.persistedOutputs.get(fileName))?.content;
    if (content === undefined) return err({ type: 'PersistedOutputNotFound', fileName });
    const start = Math.max(0, Math.floor(offset));
    const count = Math.max(0, Math.floor(limit));
    const lines = content.split('\n');
    const base = { fileName, offset: start, unit, totalLength: content.length, totalLines: lines.length };
    if (unit === 'lines') {
      return ok({
        ...base,
        content: lines.slice(start, start + count).join('\n'),
        hasMore: start + count < lines.length,
      });
    }
    return ok({
      ...base,
      content: content.slice(start, start + count),
      hasMore: start + count < content.length,
    });
  }
}
