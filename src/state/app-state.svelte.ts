import { untrack } from 'svelte';
import type { Estimator } from '../core/tokens/estimator.ts';
import type { Transcript } from '../core/transcript/transcript.ts';
import type { ComputeClient, ImportSummary, OpenedDocument } from '../io/compute/compute-client.ts';
import type { SettingsRepository } from '../io/db/settings-repository.ts';
import { CompareState } from './compare-state.svelte.ts';
import { ImportState, type ImportStorageOutcome, type ImportStoring } from './import-state.svelte.ts';
import type { LabSessionStore } from './lab-session-store.ts';
import { PlanState } from './plan-state.svelte.ts';
import { ProviderState } from './provider-state.svelte.ts';
import { ReplayState } from './replay-state.svelte.ts';
import { SettingsState } from './settings-state.svelte.ts';
import { TranscriptState } from './transcript-state.svelte.ts';
import { WorkspaceState } from './workspace-state.svelte.ts';

export interface AppDependencies {
  compute: ComputeClient;
  settingsRepository: SettingsRepository;
  /** Loads the built-in demo; a function so its data stays out of the main bundle. */
  loadDemoTranscript: () => Promise<Transcript>;
  /** Session storage; without it imports and replays are simply not kept. */
  sessions?: LabSessionStore | null;
  /** Today as `YYYY-MM-DD`; injectable for tests. */
  today?: () => string;
}

/**
 * What the workspace shows: the demo, a fresh import, a replay result, a stored session, or
 * `epoch`, a read-only view of a stored compaction.
 */
export type TranscriptSource = 'demo' | 'import' | 'replay' | 'session' | 'epoch';

/** The root of the reactive state; `main.ts` builds it and the UI reads it from context. */
export class AppState {
  readonly settings: SettingsState;
  readonly provider: ProviderState;
  readonly transcript: TranscriptState;
  readonly plan: PlanState;
  readonly importer: ImportState;
  readonly replay: ReplayState;
  readonly compare: CompareState;
  readonly workspace = new WorkspaceState();
  readonly #dependencies: AppDependencies;

  /** The stored session of the transcript on screen; null until stored. */
  currentSessionId = $state<string | null>(null);
  currentSource = $state<TranscriptSource>('demo');
  /** For a stored session: where it came from (`chat`, `import`, `demo`, `replay`); null otherwise. */
  currentSessionOrigin = $state<string | null>(null);
  startError = $state<string | null>(null);

  constructor(dependencies: AppDependencies) {
    this.#dependencies = dependencies;
    this.settings = new SettingsState(dependencies.settingsRepository);
    this.provider = new ProviderState(dependencies.settingsRepository);
    this.transcript = new TranscriptState(dependencies.compute, () => this.settings.strategyName);
    this.plan = new PlanState({
      compute: dependencies.compute,
      transcript: this.transcript,
      settings: this.settings,
      provider: this.provider,
    });
    this.importer = new ImportState({
      compute: dependencies.compute,
      strategyName: () => this.settings.strategyName,
      onImported: (summary, opened, title, storing) => this.#adoptImport(summary, opened, title, storing),
    });
    this.replay = new ReplayState({
      compute: dependencies.compute,
      transcript: this.transcript,
      settings: this.settings,
      provider: this.provider,
      plan: this.plan,
      sessions: dependencies.sessions ?? null,
      currentSessionId: () => this.#ensureCurrentSession(),
      today: dependencies.today ?? (() => new Date().toISOString().slice(0, 10)),
      readOnly: () => this.readOnly,
    });
    this.compare = new CompareState({
      compute: dependencies.compute,
      transcript: this.transcript,
      settings: this.settings,
      provider: this.provider,
    });
    this.settings.onChange(() => this.plan.refresh());
    this.transcript.onChange(() => this.plan.refresh());
    // The window belongs to the model (provider settings): a new model or window redraws the plan.
    $effect.root(() => {
      $effect(() => {
        void this.provider.contextWindow;
        untrack(() => this.plan.refresh());
      });
    });
  }

  get hasSessionStore(): boolean {
    return Boolean(this.#dependencies.sessions);
  }

  /** The transcript on screen is a stored epoch's history, shown read-only: replays are not saved. */
  get readOnly(): boolean {
    return this.currentSource === 'epoch';
  }

  /** Shows one side of a stored compaction (what it replaced, or what it produced), read-only. */
  async openReadOnly(transcript: Transcript): Promise<void> {
    await this.openTranscript(transcript, 'epoch');
  }

  /** First open: settings from IndexedDB, then the demo transcript with its counts. */
  async start(): Promise<void> {
    try {
      await Promise.all([this.settings.load(), this.provider.load()]);
      const demo = await this.#dependencies.loadDemoTranscript();
      await this.openTranscript(demo, 'demo');
    } catch (error) {
      this.startError = error instanceof Error ? error.message : String(error);
    }
  }

  async changeEstimator(estimator: Estimator): Promise<void> {
    await this.settings.setEstimator(estimator);
    await this.transcript.count(estimator);
  }

  /** Shows a transcript the page holds in the workspace (the demo). It is not stored. */
  async openTranscript(transcript: Transcript, source: TranscriptSource): Promise<void> {
    this.#beforeSwitch(source);
    await this.transcript.load(transcript, this.settings.estimator);
  }

  /**
   * Shows a stored session in the workspace (the worker loads it from IndexedDB) and makes it the
   * current session, so a replay saved as a continuation continues it. `messageId`, a stored id
   * (a search hit), selects its message; returns whether that message is in the live transcript.
   * Throws when the session cannot be opened (it was deleted, say).
   */
  async openSession(
    sessionId: string,
    messageId: number | null = null,
    origin: string | null = null,
  ): Promise<boolean> {
    const previous = {
      id: this.currentSessionId,
      source: this.currentSource,
      origin: this.currentSessionOrigin,
    };
    this.#beforeSwitch('session');
    let index: number | null;
    try {
      index = await this.transcript.openStored(sessionId, this.settings.estimator, messageId);
    } catch (error) {
      // The transcript on screen did not change: neither does the session it is.
      this.currentSessionId = previous.id;
      this.currentSource = previous.source;
      this.currentSessionOrigin = previous.origin;
      throw error;
    }
    this.currentSessionId = sessionId;
    this.currentSessionOrigin = origin;
    if (index !== null) this.workspace.jumpTo(index);
    return index !== null;
  }

  /** Opens the latest replay result as the transcript on screen (a copy of the worker's result document). */
  async openReplayResult(): Promise<void> {
    const result = this.replay.resultDocument();
    const saved = this.replay.current?.saved ?? null;
    if (!result) return;
    this.#beforeSwitch('replay');
    await this.transcript.openCopy(
      result.documentId,
      result.metadata,
      result.messages,
      this.settings.estimator,
      {
        pinned: result.pinned,
        sessionId: saved?.id ?? null,
      },
    );
    this.currentSessionId = saved?.id ?? null;
  }

  async #adoptImport(
    summary: ImportSummary,
    opened: OpenedDocument,
    title: string | null,
    storing: ImportStoring,
  ): Promise<ImportStorageOutcome | null> {
    this.#beforeSwitch('import');
    const metadata = { ...summary.metadata };
    if (title !== null) metadata.title = title;
    else delete metadata.title;
    const counting = this.transcript.adopt(opened, metadata, this.settings.estimator);
    void counting;
    const sessions = this.#dependencies.sessions;
    if (!sessions) return null;
    try {
      const pinned = [...this.transcript.pins.indices];
      const stored = await sessions.storeDocument({
        documentId: this.transcript.documentId,
        revision: opened.revision,
        metadata,
        source: 'import',
        cancelToken: storing.cancelToken,
        onProgress: storing.onProgress,
        pinned,
      });
      if (this.transcript.revision === opened.revision) this.currentSessionId = stored.id;
      this.transcript.storedAs(stored.id, opened.revision, pinned);
      return { stored: true };
    } catch (error) {
      return { stored: false, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  #beforeSwitch(source: TranscriptSource): void {
    this.currentSessionId = null;
    this.currentSource = source;
    this.currentSessionOrigin = null;
    this.replay.reset();
    this.compare.reset();
    this.workspace.clearSelection();
    // The import line describes the import on screen; anything else on screen makes it stale.
    if (source !== 'import') this.importer.dismiss();
  }

  async #ensureCurrentSession(): Promise<string | null> {
    if (this.currentSessionId) return this.currentSessionId;
    const sessions = this.#dependencies.sessions;
    const view = this.transcript.view;
    if (!sessions || !view || this.readOnly) return null;
    await this.transcript.ensureOpen();
    // An unstored transcript's pins are stored with it.
    const pinned = [...this.transcript.pins.indices];
    const stored = await sessions.storeDocument({
      documentId: view.documentId,
      revision: this.transcript.revision ?? view.revision,
      metadata: view.metadata,
      source: this.currentSource === 'import' ? 'import' : 'demo',
      pinned,
    });
    if (this.transcript.view?.metadata === view.metadata) {
      this.currentSessionId = stored.id;
      this.transcript.storedAs(stored.id, this.transcript.revision ?? view.revision, pinned);
    }
    return stored.id;
  }
}
