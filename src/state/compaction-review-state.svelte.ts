import type { Fact } from '../core/fidelity/fact.ts';
import type { CompactionAssessment } from '../core/lab/assess-compaction.ts';
import type { LabCompression } from '../core/lab/lab-compression.ts';
import type { CompactionMode } from '../core/sessions/compaction-mode.ts';
import type { Result } from '../core/shared/result.ts';

/** Waits this long after the last keystroke before recomputing the preview and the count. */
export const REVIEW_PREVIEW_DEBOUNCE_MS = 300;

export type ReviewStatus = 'open' | 'committing' | 'committed' | 'discarded';

/** What the user decided: the bodies to commit (edited or not), or nothing. */
export type ReviewOutcome = { kind: 'commit'; bodies: readonly string[] } | { kind: 'discard' };

export interface CompactionReviewSource {
  /** What the review is of, in words: "/compress", "automatic compaction (preflight)", "replay 1". */
  readonly title: string;
  readonly mode: CompactionMode;
  /** The compaction as its summariser wrote it, with fidelity and ledger. */
  readonly original: LabCompression;
  /** Why it cannot wait (an overflow), or null. */
  readonly note: string | null;
  /**
   * The same compaction with these bodies and no summariser call: what committing them stores,
   * with its own fidelity and ledger.
   */
  readonly preview: (bodies: readonly string[]) => Promise<Result<LabCompression, { message: string }>>;
  /** Exact tokens of one text (the worker's encoder). */
  readonly countTokens: (text: string) => Promise<number>;
  /** Which count that is, e.g. "o200k_base". */
  readonly encoding: string;
  /**
   * Carries out the decision: commits (may fail with a reason, and the review stays open) or
   * discards. The chat resolves the runtime's waiting reviewer here; the replay stores.
   */
  readonly decide: (outcome: ReviewOutcome) => Promise<string | null>;
  readonly debounceMs?: number;
}

/**
 * One compaction under review (ROUND2 §4): the summary bodies in editors with a live exact token
 * count, the facts the compaction would lose next to them (one click adds a fact to the summary),
 * the ledger, and Commit / Discard. Every edit re-runs the compaction with the edited bodies
 * (`summaryOverrides`, no summariser call), latest wins, so what is shown is exactly what Commit
 * would store. The source carries out the decision; this class only holds the editing state.
 */
export class CompactionReviewState {
  readonly #source: CompactionReviewSource;
  readonly title: string;
  readonly mode: CompactionMode;
  readonly note: string | null;
  readonly original: LabCompression;
  readonly encoding: string;
  #bodies = $state<string[]>([]);
  #preview = $state.raw<LabCompression>(null as unknown as LabCompression);
  #previewing = $state(false);
  /** An edit waits for the debounce before its preview starts. */
  #waiting = $state(false);
  #previewError = $state<string | null>(null);
  #tokenCounts = $state<Array<number | null>>([]);
  #status = $state<ReviewStatus>('open');
  #commitError = $state<string | null>(null);
  #timer: ReturnType<typeof setTimeout> | null = null;
  #serial = 0;

  constructor(source: CompactionReviewSource) {
    this.#source = source;
    this.title = source.title;
    this.mode = source.mode;
    this.note = source.note;
    this.original = source.original;
    this.encoding = source.encoding;
    this.#bodies = source.original.summaries.map((summary) => summary.body);
    this.#preview = source.original;
    this.#tokenCounts = this.#bodies.map(() => null);
    void this.#count(++this.#serial);
  }

  get bodies(): readonly string[] {
    return this.#bodies;
  }

  /** The compaction as Commit would store it now (the original until an edit is recomputed). */
  get preview(): LabCompression {
    return this.#preview;
  }

  get assessment(): CompactionAssessment | null {
    return this.#preview.assessment;
  }

  /** What the summary, as edited, would still lose. */
  get lostFacts(): readonly Fact[] {
    return this.#preview.assessment?.fidelity.lost ?? [];
  }

  /** Exact tokens of each body as edited; null while counting. */
  get tokenCounts(): ReadonlyArray<number | null> {
    return this.#tokenCounts;
  }

  get previewing(): boolean {
    return this.#previewing || this.#waiting;
  }

  get previewError(): string | null {
    return this.#previewError;
  }

  get status(): ReviewStatus {
    return this.#status;
  }

  get open(): boolean {
    return this.#status === 'open' || this.#status === 'committing';
  }

  get commitError(): string | null {
    return this.#commitError;
  }

  /** The reviewer changed some body. */
  get edited(): boolean {
    return this.#bodies.some((body, index) => body !== this.original.summaries[index]?.body);
  }

  edit(index: number, text: string): void {
    if (this.#status !== 'open' || index < 0 || index >= this.#bodies.length) return;
    this.#bodies = this.#bodies.map((body, at) => (at === index ? text : body));
    this.#schedule();
  }

  /** Puts a lost fact back: its text as a line at the end of the summary it belongs to (the last one). */
  addFact(fact: Fact, index = this.#bodies.length - 1): void {
    const body = this.#bodies[index];
    if (body === undefined) return;
    this.edit(index, `${body.trimEnd()}\n- ${fact.display}`);
  }

  /** Restores the summariser's text. */
  reset(): void {
    if (this.#status !== 'open') return;
    this.#bodies = this.original.summaries.map((summary) => summary.body);
    this.#schedule();
  }

  async commit(): Promise<void> {
    if (this.#status !== 'open') return;
    this.#cancelTimer();
    this.#status = 'committing';
    this.#commitError = null;
    const failure = await this.#source.decide({ kind: 'commit', bodies: [...this.#bodies] });
    if (failure === null) this.#status = 'committed';
    else {
      this.#commitError = failure;
      this.#status = 'open';
    }
  }

  async discard(): Promise<void> {
    if (this.#status !== 'open') return;
    this.#cancelTimer();
    this.#status = 'discarded';
    await this.#source.decide({ kind: 'discard' });
  }

  /** Closes the review without a decision (the turn was stopped); nothing further is computed. */
  close(): void {
    this.#cancelTimer();
    this.#serial++;
    if (this.open) this.#status = 'discarded';
  }

  #schedule(): void {
    this.#cancelTimer();
    const serial = ++this.#serial;
    this.#tokenCounts = this.#bodies.map(() => null);
    this.#waiting = true;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#waiting = false;
      void this.#recompute(serial);
    }, this.#source.debounceMs ?? REVIEW_PREVIEW_DEBOUNCE_MS);
  }

  #cancelTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#waiting = false;
  }

  async #recompute(serial: number): Promise<void> {
    void this.#count(serial);
    const bodies = [...this.#bodies];
    if (!this.edited) {
      this.#preview = this.original;
      this.#previewError = null;
      return;
    }
    this.#previewing = true;
    try {
      const result = await this.#source.preview(bodies);
      if (serial !== this.#serial) return;
      if (result.ok) {
        this.#preview = result.value;
        this.#previewError = result.value.skipped
          ? `With this text the compaction would be refused (${result.value.notes[0] ?? result.value.skipped}).`
          : null;
      } else this.#previewError = result.error.message;
    } catch (error) {
      if (serial === this.#serial)
        this.#previewError = error instanceof Error ? error.message : String(error);
    } finally {
      if (serial === this.#serial) this.#previewing = false;
    }
  }

  async #count(serial: number): Promise<void> {
    const bodies = [...this.#bodies];
    try {
      const counts = await Promise.all(bodies.map((body) => this.#source.countTokens(body)));
      if (serial === this.#serial) this.#tokenCounts = counts;
    } catch {
      // The count stays unknown ("counting…"); the preview and the commit do not depend on it.
    }
  }
}
