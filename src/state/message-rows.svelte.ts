import type { MessageSummary, TranscriptView } from './transcript-view.ts';

/** Rows fetched from the worker at a time: a screenful and some on either side. */
export const ROWS_PER_CHUNK = 100;
/** Chunks kept; the oldest fetched is dropped beyond this (a 50,000-row scroll stays small). */
export const MAXIMUM_CHUNKS = 60;

/**
 * The message list's rows of one transcript view, fetched from the worker a chunk at a time as
 * the list scrolls to them. `at` is reactive: a row that arrives redraws the rows waiting for it.
 */
export class MessageRows {
  readonly #view: TranscriptView;
  readonly #chunks = new Map<number, readonly MessageSummary[]>();
  readonly #loading = new Set<number>();
  #version = $state(0);

  constructor(view: TranscriptView) {
    this.#view = view;
  }

  /** The row of message `index`, or null until it has arrived. */
  at(index: number): MessageSummary | null {
    void this.#version;
    const chunk = this.#chunks.get(Math.floor(index / ROWS_PER_CHUNK));
    return chunk?.[index % ROWS_PER_CHUNK] ?? null;
  }

  /** Makes sure rows `[first, last)` are there or on their way. */
  request(first: number, last: number): void {
    const end = Math.min(last, this.#view.count);
    for (let chunk = Math.floor(Math.max(0, first) / ROWS_PER_CHUNK); chunk * ROWS_PER_CHUNK < end; chunk++) {
      if (this.#chunks.has(chunk) || this.#loading.has(chunk)) continue;
      void this.#load(chunk);
    }
  }

  async #load(chunk: number): Promise<void> {
    this.#loading.add(chunk);
    try {
      const start = chunk * ROWS_PER_CHUNK;
      const rows = await this.#view.rows(start, start + ROWS_PER_CHUNK);
      if (rows.length === 0) return;
      this.#chunks.set(chunk, rows);
      while (this.#chunks.size > MAXIMUM_CHUNKS) this.#chunks.delete(this.#chunks.keys().next().value!);
      this.#version += 1;
    } catch {
      // The worker went away; the rows stay placeholders until the view is opened again.
    } finally {
      this.#loading.delete(chunk);
    }
  }
}
