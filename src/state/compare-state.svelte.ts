import type { CompareEntry } from '../core/comparison/compare-entry.ts';
import type { Comparison, CompareProgress, ComparisonRow } from '../core/comparison/comparison.ts';
import { diffLostFacts, type LostFactsDiff } from '../core/comparison/diff-lost-facts.ts';
import type { AssessmentRoute } from '../core/lab/assess-compaction.ts';
import { STRATEGY_PROFILES } from '../core/strategies/strategy-catalog.ts';
import type { StrategyProfile } from '../core/strategies/strategy.ts';
import {
  workerCallback,
  type CompareReply,
  type CompareRequest,
  type ComputeClient,
} from '../io/compute/compute-client.ts';
import type { ProviderState } from './provider-state.svelte.ts';
import type { SettingsState } from './settings-state.svelte.ts';
import type { TranscriptState } from './transcript-state.svelte.ts';

/** A comparison needs two entries to compare and stays readable up to six. */
export const MIN_COMPARE_ENTRIES = 2;
export const MAX_COMPARE_ENTRIES = 6;

/** One entry as the Compare tab edits it; `CompareEntry` is what the worker gets. */
export interface CompareEntryDraft {
  readonly id: number;
  readonly strategy: StrategyProfile;
  /** '' names the entry after its strategy and overrides. */
  readonly label: string;
  /** Hermes' trigger as a fraction of the window; null keeps the lab's setting. */
  readonly thresholdPercent: number | null;
  /** Options of the strategy set for this entry only (`StrategyProfile.options` keys). */
  readonly strategyOptions: Readonly<Record<string, number>>;
}

export type CompareStatus = 'idle' | 'running' | 'ready' | 'cancelled' | 'error';

export interface CompareDependencies {
  compute: ComputeClient;
  transcript: TranscriptState;
  settings: SettingsState;
  provider: ProviderState;
}

/** A file to download, made here so the UI only has to save it. */
export interface CompareExport {
  readonly fileName: string;
  readonly mimeType: string;
  readonly blob: Blob;
}

/** The two rows being diffed and what one kept that the other lost. */
export interface CompareDiffView {
  readonly first: ComparisonRow;
  readonly second: ComparisonRow;
  readonly diff: LostFactsDiff;
}

const toEntry = (draft: CompareEntryDraft): CompareEntry => ({
  // The worker protocol is an edge: the strategy travels by name.
  strategy: draft.strategy.name,
  ...(draft.label.trim() ? { label: draft.label.trim() } : {}),
  ...(draft.thresholdPercent !== null ? { config: { thresholdPercent: draft.thresholdPercent } } : {}),
  ...(Object.keys(draft.strategyOptions).length > 0 ? { strategyOptions: draft.strategyOptions } : {}),
});

const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60) || 'transcript';

/**
 * The Compare tab (ROUND2 §2): 2–6 entries (a strategy with optional overrides), compared on
 * the transcript on screen in the worker, with progress and cancellation. The worker sends back
 * rows, lanes and lost-fact lists only; this class keeps them, which row is open, which two are
 * diffed, and makes the Markdown and JSON exports.
 */
export class CompareState {
  readonly #dependencies: CompareDependencies;
  #nextId = 1;
  #runCount = 0;
  #runId: string | null = null;
  /** What the shown comparison was computed from; a different key now means it is stale. */
  #ranKey = $state<string | null>(null);

  entries = $state.raw<readonly CompareEntryDraft[]>([]);
  status = $state<CompareStatus>('idle');
  progress = $state.raw<CompareProgress | null>(null);
  comparison = $state.raw<Comparison | null>(null);
  error = $state<string | null>(null);
  /** The row whose losses and summary are shown, by index. */
  openRow = $state<number | null>(null);
  /** Up to two rows chosen for the diff, in the order chosen. */
  diffRows = $state.raw<readonly number[]>([]);

  constructor(dependencies: CompareDependencies) {
    this.#dependencies = dependencies;
  }

  get running(): boolean {
    return this.status === 'running';
  }

  get canAdd(): boolean {
    return this.entries.length < MAX_COMPARE_ENTRIES;
  }

  get canRun(): boolean {
    const count = this.entries.length;
    return (
      !this.running &&
      count >= MIN_COMPARE_ENTRIES &&
      count <= MAX_COMPARE_ENTRIES &&
      this.#dependencies.transcript.view !== null
    );
  }

  /** The entries, transcript or settings changed since the comparison on screen was made. */
  get stale(): boolean {
    return this.comparison !== null && this.#ranKey !== this.#key();
  }

  /** The strategy an "Add" offers first: the first one not in the list yet. */
  get suggestedStrategy(): StrategyProfile {
    const used = new Set(this.entries.map((entry) => entry.strategy));
    return STRATEGY_PROFILES.find((strategy) => !used.has(strategy)) ?? STRATEGY_PROFILES[0]!;
  }

  /**
   * Derived rather than a getter: the tab reads it more than once per draw, and a long session's
   * lost lists run to tens of thousands of facts each.
   */
  readonly diff: CompareDiffView | null = $derived.by(() => {
    const rows = this.comparison?.rows;
    const [first, second] = this.diffRows;
    if (!rows || first === undefined || second === undefined) return null;
    const a = rows[first];
    const b = rows[second];
    if (!a || !b) return null;
    return { first: a, second: b, diff: diffLostFacts(a.fidelity.lost, b.fidelity.lost) };
  });

  /**
   * Where the comparison prices compactions: the provider's route, or the model the transcript
   * was recorded with when it names another (`assessmentRoute`; the replay's ledger prices the same).
   */
  #route(): AssessmentRoute {
    const { provider, transcript } = this.#dependencies;
    return provider.assessmentRoute(transcript.metadata?.model);
  }

  /** The model the next comparison prices as, and whether it is the transcript's recorded one. */
  get pricing(): { readonly model: string; readonly recorded: boolean } {
    const model = this.#route().model;
    return { model, recorded: model !== this.#dependencies.provider.config.model };
  }

  /**
   * What an empty list offers to start with in one click: the lab's own strategy and the first
   * other one, the question Compare is usually opened with (what would another strategy keep?).
   */
  get starterPair(): readonly [StrategyProfile, StrategyProfile] {
    const lab = this.#dependencies.settings.strategy;
    return [lab, STRATEGY_PROFILES.find((profile) => profile !== lab) ?? lab];
  }

  /** Fills an empty list with `starterPair`; a list with entries is left as it is. */
  addStarterPair(): void {
    if (this.entries.length > 0) return;
    for (const strategy of this.starterPair) this.addEntry(strategy);
  }

  addEntry(strategy: StrategyProfile = this.suggestedStrategy): void {
    if (!this.canAdd) return;
    this.entries = [
      ...this.entries,
      { id: this.#nextId++, strategy, label: '', thresholdPercent: null, strategyOptions: {} },
    ];
  }

  removeEntry(id: number): void {
    this.entries = this.entries.filter((entry) => entry.id !== id);
  }

  /** Changes one entry; choosing a strategy drops the old one's options and threshold. */
  updateEntry(id: number, patch: Partial<Omit<CompareEntryDraft, 'id'>>): void {
    this.entries = this.entries.map((entry) => {
      if (entry.id !== id) return entry;
      const changedStrategy = patch.strategy !== undefined;
      return {
        ...entry,
        ...patch,
        ...(changedStrategy ? { strategyOptions: patch.strategyOptions ?? {}, thresholdPercent: null } : {}),
      };
    });
  }

  /** Sets (or, with null, clears) one strategy option of an entry. */
  setEntryOption(id: number, key: string, value: number | null): void {
    const entry = this.entries.find((candidate) => candidate.id === id);
    if (!entry) return;
    const { [key]: _previous, ...rest } = entry.strategyOptions;
    this.updateEntry(id, {
      strategyOptions: value === null || !Number.isFinite(value) ? rest : { ...rest, [key]: value },
    });
  }

  toggleRow(index: number): void {
    this.openRow = this.openRow === index ? null : index;
  }

  /** Adds a row to the diff (the oldest choice gives way to a third), or takes it out. */
  toggleDiff(index: number): void {
    this.diffRows = this.diffRows.includes(index)
      ? this.diffRows.filter((row) => row !== index)
      : [...this.diffRows, index].slice(-2);
  }

  /** Forgets the comparison (a new transcript is on screen); the entries stay. */
  reset(): void {
    if (this.running) this.cancel();
    this.comparison = null;
    this.#ranKey = null;
    this.status = 'idle';
    this.progress = null;
    this.error = null;
    this.openRow = null;
    this.diffRows = [];
  }

  async run(): Promise<void> {
    if (!this.canRun) return;
    const { compute, transcript, settings, provider } = this.#dependencies;
    const runId = `compare-${++this.#runCount}`;
    this.#runId = runId;
    const key = this.#key();
    this.status = 'running';
    this.error = null;
    this.progress = null;
    try {
      await transcript.ensureOpen();
      // Exact counts first, when the estimator asks for them: every figure is then in that encoding.
      await transcript.count(settings.estimator);
      const request: CompareRequest = {
        runId,
        entries: this.entries.map(toEntry),
        config: settings.compressionConfig(provider.compressionRoute()),
        estimator: settings.estimator,
        route: this.#route(),
        // Every entry keeps the pinned messages verbatim.
        ...(transcript.pins.count > 0 ? { pinned: [...transcript.pins.indices] } : {}),
      };
      const onProgress = workerCallback((progress: CompareProgress) => {
        if (this.#runId === runId) this.progress = progress;
      });
      const reply = await compute.run<CompareReply>((api) =>
        api.compare(transcript.documentId, request, onProgress),
      );
      if (this.#runId !== runId) return;
      if (!reply.ok) {
        this.status = reply.error.type === 'Cancelled' ? 'cancelled' : 'error';
        this.error = reply.error.type === 'Cancelled' ? null : reply.error.message;
        return;
      }
      this.comparison = reply.value;
      this.#ranKey = key;
      this.status = 'ready';
      this.openRow = null;
      this.diffRows = reply.value.rows.length >= 2 ? [0, 1] : [];
    } catch (error) {
      if (this.#runId !== runId) return;
      this.status = 'error';
      this.error = error instanceof Error ? error.message : String(error);
    } finally {
      if (this.#runId === runId) this.#runId = null;
    }
  }

  /** Stops the running comparison; the worker ends it at its next yield, keeping its documents. */
  cancel(): void {
    const runId = this.#runId;
    if (!runId) return;
    this.#runId = null;
    this.status = 'cancelled';
    this.progress = null;
    void this.#dependencies.compute.run((api) => api.cancelCompare(runId)).catch(() => undefined);
  }

  /**
   * The comparison as a Markdown or JSON file, named after the transcript. The formatters load
   * on first use: they are only needed once there is a comparison to export.
   */
  async exportFile(kind: 'markdown' | 'json'): Promise<CompareExport | null> {
    const comparison = this.comparison;
    if (!comparison) return null;
    const title = this.#dependencies.transcript.metadata?.title ?? 'transcript';
    const base = `compare-${slug(title)}`;
    if (kind === 'markdown') {
      const { formatComparisonMarkdown } = await import('../core/comparison/format-comparison-markdown.ts');
      return {
        fileName: `${base}.md`,
        mimeType: 'text/markdown',
        blob: new Blob([formatComparisonMarkdown(comparison, title)], { type: 'text/markdown' }),
      };
    }
    const { comparisonReport } = await import('../core/comparison/comparison-report.ts');
    return {
      fileName: `${base}.json`,
      mimeType: 'application/json',
      blob: new Blob([`${JSON.stringify(comparisonReport(comparison, title), null, 2)}\n`], {
        type: 'application/json',
      }),
    };
  }

  #key(): string {
    const { transcript, settings } = this.#dependencies;
    return JSON.stringify([
      transcript.revision,
      transcript.view?.count ?? 0,
      transcript.pins.indices,
      settings.compression,
      this.#dependencies.provider.compressionRoute(),
      settings.strategyOptions,
      settings.estimator,
      this.#dependencies.provider.config.model,
      this.entries.map(toEntry),
    ]);
  }
}
