import { untrack } from 'svelte';
import { createCompressorState } from '../core/compression/compressor-state.ts';
import type { Estimator } from '../core/tokens/estimator.ts';
import type { Message } from '../core/transcript/message.ts';
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
import { conversationTranscript, type ChatConversation } from './chat-conversation.ts';
import type { WorkspaceConversation } from './workspace-conversation.ts';
import type { OpenedStored } from './transcript-state.svelte.ts';

export interface AppDependencies {
  compute: ComputeClient;
  settingsRepository: SettingsRepository;
  /** Session storage; without it imports and replays are simply not kept. */
  sessions?: LabSessionStore | null;
  /** Today as `YYYY-MM-DD`; injectable for tests. */
  today?: () => string;
}

/**
 * What the workspace shows: the demo, a fresh import, a replay result, a stored session,
 * `epoch`, a read-only view of a stored compaction, or `chat`, the live chat conversation (it
 * follows every turn and compaction until something else is opened).
 */
export type TranscriptSource = 'demo' | 'import' | 'replay' | 'session' | 'epoch' | 'chat';

/** The stored session the lab last showed, reopened at the next start instead of the demo. */
export const WORKSPACE_SESSION_SETTING_KEY = 'workspace-session';

interface WorkspaceSessionSetting {
  readonly sessionId: string;
  /** Where it came from, as `openSession` takes it (the top bar says "stored import", say). */
  readonly origin: string | null;
}

function isWorkspaceSessionSetting(value: unknown): value is WorkspaceSessionSetting | null {
  if (value === null) return true;
  if (!value || typeof value !== 'object') return false;
  const setting = value as Record<string, unknown>;
  return (
    typeof setting.sessionId === 'string' &&
    setting.sessionId !== '' &&
    (setting.origin === null || typeof setting.origin === 'string')
  );
}

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
  /**
   * The chat conversation on screen (the live chat, or a stored chat session), planned as its
   * loop decides; null for a transcript. Set with the source it belongs to.
   */
  currentConversation = $state.raw<WorkspaceConversation | null>(null);
  startError = $state<string | null>(null);
  /** The newest live conversation not yet shown, and whether one is being shown now. */
  #pendingConversation: ChatConversation | null = null;
  #showingConversation = false;
  /** The live conversation the workspace shows (its messages are what the worker document holds). */
  #shownConversation: ChatConversation | null = null;
  /**
   * The stored session `openSession` is opening: on screen already, counted still, before
   * `currentSessionId` says so (an undo meanwhile must still turn the workspace to the live one).
   */
  #openingSessionId: string | null = null;
  /**
   * What the settings store holds for the next start, as last read or written; undefined when
   * unknown (before `start`, or after a failed write). A write of the same value is skipped.
   */
  #remembered: WorkspaceSessionSetting | null | undefined = undefined;

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
      conversation: () => this.currentConversation,
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
      isConversation: () => this.currentConversation !== null,
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

  /**
   * First open: settings from IndexedDB, then the stored session the lab showed last (a reload
   * lands where the user was), or the demo when there is none or it cannot be opened any more
   * (deleted, or the browser evicted the store).
   */
  async start(): Promise<void> {
    try {
      const [, , last] = await Promise.all([
        this.settings.load(),
        this.provider.load(),
        this.#dependencies.sessions
          ? this.#dependencies.settingsRepository.get(
              WORKSPACE_SESSION_SETTING_KEY,
              null,
              isWorkspaceSessionSetting,
            )
          : null,
      ]);
      this.#remembered = this.#dependencies.sessions ? last : undefined;
      if (last && (await this.#reopen(last))) return;
      await this.#openDemo();
    } catch (error) {
      this.startError = error instanceof Error ? error.message : String(error);
    }
  }

  /** Reopens the session of the last visit; false (and forgotten) when it cannot be opened. */
  async #reopen(last: WorkspaceSessionSetting): Promise<boolean> {
    try {
      await this.openSession(last.sessionId, null, last.origin);
      return true;
    } catch {
      await this.#remember(null);
      return false;
    }
  }

  /**
   * Writes down which stored session the lab shows, for the next start. The live chat and a
   * read-only epoch leave it alone (the chat tab reopens its own session; an epoch belongs to the
   * session it was opened from); choosing the demo forgets it.
   */
  async #rememberShown(): Promise<void> {
    const source = this.currentSource;
    if (source === 'chat' || source === 'epoch') return;
    const sessionId = this.currentSessionId;
    if (sessionId !== null) {
      await this.#remember({ sessionId, origin: source === 'session' ? this.currentSessionOrigin : source });
    } else if (source === 'demo') {
      await this.#remember(null);
    }
  }

  /**
   * Stores the session the next start reopens (null: the demo). Where the id is known before the
   * screen changes, this is awaited first, so a reload at any moment after the change lands on
   * it. Best effort: a failed write only means the next start shows the demo.
   */
  async #remember(setting: WorkspaceSessionSetting | null): Promise<void> {
    const known = this.#remembered;
    if (
      known !== undefined &&
      (setting === null
        ? known === null
        : known?.sessionId === setting.sessionId && known.origin === setting.origin)
    )
      return;
    this.#remembered = setting;
    const repository = this.#dependencies.settingsRepository;
    try {
      if (setting) await repository.set(WORKSPACE_SESSION_SETTING_KEY, setting);
      else await repository.delete(WORKSPACE_SESSION_SETTING_KEY);
    } catch {
      if (this.#remembered === setting) this.#remembered = undefined;
    }
  }

  async changeEstimator(estimator: Estimator): Promise<void> {
    await this.settings.setEstimator(estimator);
    await this.transcript.count(estimator);
  }

  /** Shows a transcript the page holds in the workspace (an epoch). It is not stored. */
  async openTranscript(transcript: Transcript, source: TranscriptSource): Promise<void> {
    this.#beforeSwitch(source);
    await this.transcript.load(transcript, this.settings.estimator);
  }

  /** Shows the built-in demo again (the user leaves the live chat or an import for it). */
  async showDemo(): Promise<void> {
    await this.#remember(null);
    await this.#openDemo();
  }

  /** The demo is built in the worker, off the main thread; it is not stored until it is saved. */
  async #openDemo(): Promise<void> {
    this.#beforeSwitch('demo');
    await this.transcript.loadDemo(this.settings.estimator);
  }

  /**
   * Shows a stored session in the workspace (the worker loads it from IndexedDB) and makes it the
   * current session, so a replay saved as a continuation continues it. A chat session is shown as
   * its request context, planned as its loop decides at its model's window. `messageId`, a stored
   * id (a search hit), selects its message; returns whether that message is in the live
   * transcript. Throws when the session cannot be opened (it was deleted, say).
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
      conversation: this.currentConversation,
    };
    const rememberedBefore = this.#remembered;
    this.#beforeSwitch('session');
    this.#openingSessionId = sessionId;
    let opened: OpenedStored | null;
    try {
      // Written down before the screen changes: a reload once it shows lands on it.
      await this.#remember({ sessionId, origin });
      opened = await this.transcript.openStored(sessionId, this.settings.estimator, messageId);
    } catch (error) {
      if (this.#openingSessionId === sessionId) this.#openingSessionId = null;
      // The transcript on screen did not change: neither does the session it is, nor the next start.
      this.currentSessionId = previous.id;
      this.currentSource = previous.source;
      this.currentSessionOrigin = previous.origin;
      this.currentConversation = previous.conversation;
      await this.#remember(rememberedBefore ?? null);
      throw error;
    }
    if (this.#openingSessionId === sessionId) this.#openingSessionId = null;
    // A newer open overtook this one: it says what the workspace shows.
    if (opened === null) return false;
    this.currentSessionId = sessionId;
    this.currentSessionOrigin = origin;
    const conversation = opened.conversation;
    if (conversation) {
      const state = conversation.compressorState ?? createCompressorState();
      this.currentConversation = {
        state,
        // What the chat's loop reads when it reopens the session.
        lastSessionPromptTokens: Math.max(0, state.lastPromptTokens),
        model: conversation.model,
        learnedContextLength: null,
      };
      this.plan.refresh();
    }
    const index = opened.messageIndex;
    if (index !== null) this.workspace.jumpTo(index);
    return index !== null;
  }

  /**
   * The live chat changed (a message stored, usage read, a compaction, a session opened).
   * `claim`: the user acted in the chat, so the workspace turns to it; otherwise it follows only
   * while it shows the chat. Cheap per call: the newest turn is appended to the worker's
   * document, a compaction reopens it, and a burst of changes is shown once, newest last.
   */
  showConversation(conversation: ChatConversation, claim: boolean): void {
    // A new chat before its first message: nothing to show yet.
    if (conversation.sessionId === null) return;
    if (claim && this.currentSource !== 'chat') {
      this.#beforeSwitch('chat');
      this.#shownConversation = null;
    } else if (this.currentSource !== 'chat') return;
    this.#pendingConversation = conversation;
    if (!this.#showingConversation) {
      this.#showingConversation = true;
      void this.#showPendingConversations();
    }
  }

  async #showPendingConversations(): Promise<void> {
    for (;;) {
      const conversation = this.#pendingConversation;
      // Checked and cleared in one step, so a change arriving now starts a new loop.
      if (conversation === null || this.currentSource !== 'chat') {
        this.#pendingConversation = null;
        this.#showingConversation = false;
        return;
      }
      this.#pendingConversation = null;
      try {
        await this.#showConversationNow(conversation);
      } catch {
        // The transcript state shows the failure; the next change tries again.
        this.#shownConversation = null;
      }
    }
  }

  async #showConversationNow(conversation: ChatConversation): Promise<void> {
    const shown = this.#shownConversation;
    const sameMessages = shown !== null && shown.messages === conversation.messages;
    const context: WorkspaceConversation = {
      state: conversation.state,
      lastSessionPromptTokens: conversation.lastSessionPromptTokens,
      model: null,
      learnedContextLength: conversation.learnedContextLength,
    };
    this.currentSessionId = conversation.sessionId;
    this.currentSessionOrigin = 'chat';
    if (
      sameMessages &&
      shown.title === conversation.title &&
      shown.systemPrompt === conversation.systemPrompt
    ) {
      // Only what the loop decides with changed (usage read, a gate): re-plan, no new document.
      this.#shownConversation = conversation;
      if (!sameLoopState(this.currentConversation, context)) {
        this.currentConversation = context;
        this.plan.refresh();
      }
      return;
    }
    // The transcript changes under any replay of the old one: its runs no longer apply.
    this.replay.reset();
    this.currentConversation = context;
    const transcript = conversationTranscript(conversation);
    const grew =
      shown !== null &&
      shown.sessionId === conversation.sessionId &&
      shown.systemPrompt === conversation.systemPrompt &&
      isPrefix(shown.messages, conversation.messages);
    this.#shownConversation = conversation;
    const from = transcript.messages.length - (conversation.messages.length - (shown?.messages.length ?? 0));
    if (
      grew &&
      (await this.transcript.append(transcript.messages, from, transcript.metadata, this.settings.estimator))
    )
      return;
    // A compaction, another session or a first look: the whole request context, once.
    this.workspace.clearSelection();
    await this.transcript.load(transcript, this.settings.estimator);
  }

  /**
   * An undo or redo in Sessions changed a conversation: when the lab shows one of its sessions,
   * it shows the conversation's live session now (after undoing a rotation the parent is live
   * again and the continuation on screen an undone branch; in place the same session holds other
   * rows), so the map, the plan and the next reload follow the history the user chose. The live
   * chat reloads itself (`ChatState.reloadIfShowing`); a read-only epoch stays what it is.
   * `origin`: where the live session came from (its row's source), as the Sessions list opens it.
   */
  async reloadIfShowing(
    change: { sessionIds: readonly string[]; liveSessionId: string },
    origin: string | null,
  ): Promise<void> {
    const source = this.currentSource;
    const shown = this.currentSessionId ?? (source === 'session' ? this.#openingSessionId : null);
    if (source === 'chat' || source === 'epoch' || shown === null || !change.sessionIds.includes(shown))
      return;
    try {
      await this.openSession(change.liveSessionId, null, origin);
    } catch {
      // The transcript state shows why it could not be opened; the old one stays on screen.
    }
  }

  /** Opens the latest replay result as the transcript on screen (a copy of the worker's result document). */
  async openReplayResult(): Promise<void> {
    const result = this.replay.resultDocument();
    const saved = this.replay.current?.saved ?? null;
    if (!result) return;
    // A saved result is a stored session: the next start reopens it (written before it shows).
    if (saved) await this.#remember({ sessionId: saved.id, origin: 'replay' });
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
    // Saved, it is a stored session that came from a replay (the top bar says so).
    this.currentSessionOrigin = saved ? 'replay' : null;
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
      const stillShown = this.transcript.revision === opened.revision;
      if (stillShown) this.currentSessionId = stored.id;
      this.transcript.storedAs(stored.id, opened.revision, pinned);
      // Remembered before the import reports itself stored: a reload after that lands on it.
      if (stillShown) await this.#rememberShown();
      return { stored: true };
    } catch (error) {
      return { stored: false, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  #beforeSwitch(source: TranscriptSource): void {
    this.currentSessionId = null;
    this.#openingSessionId = null;
    this.currentSource = source;
    this.currentSessionOrigin = null;
    this.currentConversation = null;
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
      await this.#rememberShown();
    }
    return stored.id;
  }
}

/** Whether `prefix` is the start of `messages`, message for message (the chat only appends). */
function isPrefix(prefix: readonly Message[], messages: readonly Message[]): boolean {
  if (prefix.length > messages.length) return false;
  for (let index = 0; index < prefix.length; index++) if (prefix[index] !== messages[index]) return false;
  return true;
}

/** Whether two plans of a conversation would decide alike (the same loop state). */
function sameLoopState(current: WorkspaceConversation | null, next: WorkspaceConversation): boolean {
  return (
    current !== null &&
    current.state === next.state &&
    current.lastSessionPromptTokens === next.lastSessionPromptTokens &&
    current.learnedContextLength === next.learnedContextLength
  );
}
