import { isAwaitingReply } from '../core/transcript/is-awaiting-reply.ts';
import { matchToolResults } from '../core/transcript/match-tool-results.ts';
import type { Message } from '../core/transcript/message.ts';
import type { SettingsRepository } from '../io/db/settings-repository.ts';
import type {
  CompactionReason,
  CompactionReport,
  ConversationEvent,
  UsageReport,
} from '../core/loop/conversation-event.ts';
import type { ConversationRuntime, TurnResult } from '../io/runtime/conversation-runtime.ts';
import type { CompactionHistory } from '../io/runtime/conversation-store.ts';
import type { CompactionDraft, CompactionReviewer, ReviewDecision } from '../io/runtime/compaction-review.ts';
import { DEFAULT_CHAT_MAX_OUTPUT_TOKENS, type RuntimeSettings } from '../io/runtime/runtime-settings.ts';
import { CompactionReviewState } from './compaction-review-state.svelte.ts';
import type { ChatConversation } from './chat-conversation.ts';

// The UI may not import io (layer rule): it gets the event shapes from here.
export type { CompactionHistory, CompactionReason, CompactionReport, UsageReport };

/** Settings keys of the chat (the provider and compression settings live elsewhere). */
export const CHAT_SESSION_SETTING_KEY = 'chat-session';
export const CHAT_OPTIONS_SETTING_KEY = 'chat-options';

export const DEFAULT_CHAT_SYSTEM_PROMPT = 'You are a helpful assistant. Answer clearly and concisely.';

/** One row of the chat log. Compaction and notice rows exist only in this tab's view of the turn. */
export type ChatEntry =
  | { readonly kind: 'message'; readonly id: number; readonly message: Message }
  | { readonly kind: 'compaction'; readonly id: number; readonly report: CompactionReport }
  | {
      readonly kind: 'notice';
      readonly id: number;
      readonly text: string;
      readonly tone: 'info' | 'warning' | 'error';
    };

/** An entry before it gets its id (distributes over the union, unlike `Omit`). */
type ChatEntryDraft = ChatEntry extends infer Entry
  ? Entry extends ChatEntry
    ? Omit<Entry, 'id'>
    : never
  : never;

export type ChatStatus =
  'idle' | 'sending' | 'streaming' | 'compacting' | 'reviewing' | 'retrying' | 'running-tools';

const REVIEW_TITLES: Readonly<Record<CompactionReason, string>> = {
  manual: '/compress',
  hygiene: 'automatic compaction (session hygiene)',
  preflight: 'automatic compaction (before the request)',
  'pre-api': 'automatic compaction (before the request)',
  'post-turn': 'automatic compaction (after a tool round)',
  overflow: 'compaction after an overflow',
  replay: 'replay',
};

/** What the user can change in the chat panel itself. */
export interface ChatOptions {
  systemPrompt: string;
  maxOutputTokens: number;
  promptCaching: boolean;
}

const DEFAULT_CHAT_OPTIONS: Readonly<ChatOptions> = Object.freeze({
  systemPrompt: DEFAULT_CHAT_SYSTEM_PROMPT,
  maxOutputTokens: DEFAULT_CHAT_MAX_OUTPUT_TOKENS,
  promptCaching: true,
});

function isChatOptions(value: unknown): value is ChatOptions {
  if (!value || typeof value !== 'object') return false;
  const options = value as Record<string, unknown>;
  return (
    typeof options.systemPrompt === 'string' &&
    typeof options.maxOutputTokens === 'number' &&
    Number.isInteger(options.maxOutputTokens) &&
    options.maxOutputTokens > 0 &&
    typeof options.promptCaching === 'boolean'
  );
}

const isSessionId = (value: unknown): value is string => typeof value === 'string' && value !== '';

export interface ChatStateDependencies {
  /**
   * Builds the runtime around the settings this state completes (the chat's own options) and
   * the reviewer this state provides (it shows compactions under review).
   * Asynchronous so the loop, the compressor and the clients load with the chat, not the page.
   */
  createRuntime: (
    settings: () => RuntimeSettings,
    reviewer: CompactionReviewer,
  ) => Promise<ConversationRuntime>;
  /** Exact tokens of a text, for the review's live count (the worker's encoder); absent: not shown. */
  countTokens?: (text: string) => Promise<number>;
  /** The encoding `countTokens` uses, for its label. */
  encoding?: () => string;
  /** Provider, preset and compression settings from the lab (everything but the chat options). */
  baseSettings: () => Omit<RuntimeSettings, 'systemPrompt' | 'maxOutputTokens' | 'promptCaching'>;
  settingsRepository: SettingsRepository;
  /**
   * Told every change of the conversation (the workspace follows it). `claim`: the user acted in
   * the chat (sent, retried, compacted, undid, resumed), so the workspace turns to it.
   */
  onConversation?: (conversation: ChatConversation, claim: boolean) => void;
}

/**
 * The reactive bridge over the conversation runtime (C10: one bridge per outside source): the
 * chat log, the reply being streamed, the status, errors, usage per request and compaction
 * events. The runtime stays plain TypeScript; this class only listens to its events.
 */
export class ChatState {
  readonly #dependencies: ChatStateDependencies;
  #runtime: ConversationRuntime | null = null;
  #runtimeLoading: Promise<ConversationRuntime> | null = null;
  readonly #repository: SettingsRepository;
  #entries = $state.raw<ChatEntry[]>([]);
  /** Each message entry's tool results, by call position (ids may repeat in stored sessions). */
  #toolResults = $derived.by(() => {
    const messageEntries = this.#entries.filter((entry) => entry.kind === 'message');
    const results = matchToolResults(messageEntries.map((entry) => entry.message));
    return new Map(messageEntries.map((entry, index) => [entry.id, results[index] ?? []]));
  });
  #streamingText = $state('');
  #status = $state<ChatStatus>('idle');
  #compactionReason = $state<CompactionReason | null>(null);
  #error = $state<string | null>(null);
  #canRetry = $state(false);
  /** The reopened conversation ends unanswered: a turn failed or was stopped before a reload. */
  #reopenedUnanswered = $state(false);
  #sessionId = $state<string | null>(null);
  #sessionTitle = $state<string | null>(null);
  #usage = $state.raw<UsageReport[]>([]);
  #options = $state.raw<ChatOptions>(DEFAULT_CHAT_OPTIONS);
  #compactionCount = $state(0);
  #lastWarning = $state<string | null>(null);
  #review = $state.raw<CompactionReviewState | null>(null);
  #history = $state.raw<CompactionHistory | null>(null);
  #conversation = $state.raw<ChatConversation | null>(null);
  /** The user acted in the chat: the next published conversation claims the workspace. */
  #claim = false;
  #controller: AbortController | null = null;
  #starting: Promise<void> | null = null;
  #nextId = 1;

  constructor(dependencies: ChatStateDependencies) {
    this.#dependencies = dependencies;
    this.#repository = dependencies.settingsRepository;
  }

  /** The runtime, created on first use and subscribed to once. */
  #loadRuntime(): Promise<ConversationRuntime> {
    this.#runtimeLoading ??= this.#dependencies
      .createRuntime(
        () => ({
          ...this.#dependencies.baseSettings(),
          systemPrompt: this.#options.systemPrompt,
          maxOutputTokens: this.#options.maxOutputTokens,
          promptCaching: this.#options.promptCaching,
        }),
        (draft, signal) => this.#reviewDraft(draft, signal),
      )
      .then((runtime) => {
        runtime.events.subscribe((event) => this.#apply(event, runtime));
        this.#runtime = runtime;
        return runtime;
      });
    return this.#runtimeLoading;
  }

  get entries(): readonly ChatEntry[] {
    return this.#entries;
  }

  /** The results of an entry's tool calls, call by call (undefined while a call has none). */
  toolResultsOf(entryId: number): readonly (Message | undefined)[] {
    return this.#toolResults.get(entryId) ?? [];
  }

  get streamingText(): string {
    return this.#streamingText;
  }

  get status(): ChatStatus {
    return this.#status;
  }

  get busy(): boolean {
    return this.#status !== 'idle';
  }

  get compactionReason(): CompactionReason | null {
    return this.#compactionReason;
  }

  get error(): string | null {
    return this.#error;
  }

  get canRetry(): boolean {
    return this.#canRetry && this.#status === 'idle';
  }

  /** Why Retry is offered with no error on screen: the conversation was reopened without a reply. */
  get reopenedUnanswered(): boolean {
    return this.#reopenedUnanswered && this.canRetry;
  }

  get sessionId(): string | null {
    return this.#sessionId;
  }

  get sessionTitle(): string | null {
    return this.#sessionTitle;
  }

  /** The conversation as the loop holds it after the latest event; null before the runtime loads. */
  get conversation(): ChatConversation | null {
    return this.#conversation;
  }

  /** Usage of every request this tab made, in order (chat and summary calls). */
  get usage(): readonly UsageReport[] {
    return this.#usage;
  }

  get options(): ChatOptions {
    return this.#options;
  }

  get compactionCount(): number {
    return this.#compactionCount;
  }

  /** The repeated-compression warning, once the session was compacted twice or more. */
  get warning(): string | null {
    return this.#lastWarning;
  }

  /** The compaction waiting for the user's decision; null when none is. */
  get review(): CompactionReviewState | null {
    return this.#review;
  }

  /** The conversation's compaction epochs and what undo and redo would change. */
  get history(): CompactionHistory | null {
    return this.#history;
  }

  get canUndo(): boolean {
    return this.#history?.undo != null && this.#status === 'idle';
  }

  get canRedo(): boolean {
    return this.#history?.redo != null && this.#status === 'idle';
  }

  /** Reverts the conversation's newest compaction: its history is live again, turns since kept. */
  async undo(): Promise<TurnResult> {
    const expected = this.#history?.undo?.id;
    const result = await this.#run((runtime) => runtime.undoCompaction(expected));
    await this.#refreshHistory();
    return result;
  }

  /**
   * Another panel undid or redid a compaction of `sessionIds`: when this chat shows one of them
   * and no turn runs, it reopens the conversation where it is live now.
   */
  async reloadIfShowing(change: { sessionIds: readonly string[]; liveSessionId: string }): Promise<void> {
    const runtime = this.#runtime;
    if (!runtime || this.busy || runtime.sessionId === null || !change.sessionIds.includes(runtime.sessionId))
      return;
    await runtime.resume(change.liveSessionId);
    await this.#refreshHistory();
  }

  /**
   * Continues a stored conversation in this chat (Sessions' Resume): the workspace turns to it.
   * Refused while a turn runs.
   */
  async resume(sessionId: string): Promise<void> {
    if (this.busy) throw new Error('Wait for the current reply to finish, or press Stop.');
    await this.start();
    const runtime = await this.#loadRuntime();
    this.#claim = true;
    this.#error = null;
    try {
      await runtime.resume(sessionId);
    } finally {
      this.#claim = false;
    }
    // Reopened at a reload, as a conversation started here would be.
    if (runtime.sessionId !== null) void this.#repository.set(CHAT_SESSION_SETTING_KEY, runtime.sessionId);
    await this.#refreshHistory();
  }

  /** Applies again the compaction undone last. */
  async redo(): Promise<TurnResult> {
    const expected = this.#history?.redo?.id;
    const result = await this.#run((runtime) => runtime.redoCompaction(expected));
    await this.#refreshHistory();
    return result;
  }

  /**
   * Shows a compaction for review and resolves with the decision. Stopping the turn closes the
   * review; nothing is committed then.
   */
  #reviewDraft(draft: CompactionDraft, signal: AbortSignal): Promise<ReviewDecision> {
    return new Promise((resolve) => {
      const count = this.#dependencies.countTokens;
      const review = new CompactionReviewState({
        title: REVIEW_TITLES[draft.reason],
        mode: draft.mode,
        original: draft.result,
        note: draft.note,
        preview: (bodies) => draft.preview(bodies),
        countTokens: count ?? (() => Promise.reject(new Error('no exact counter'))),
        encoding: this.#dependencies.encoding?.() ?? 'o200k_base',
        decide: (outcome) => {
          this.#review = null;
          this.#status = 'compacting';
          resolve(outcome);
          return Promise.resolve(null);
        },
      });
      signal.addEventListener(
        'abort',
        () => {
          review.close();
          if (this.#review === review) this.#review = null;
          resolve({ kind: 'discard' });
        },
        { once: true },
      );
      this.#review = review;
      this.#status = 'reviewing';
    });
  }

  async #refreshHistory(): Promise<void> {
    const runtime = this.#runtime;
    if (!runtime) return;
    try {
      this.#history = await runtime.compactionHistory();
    } catch {
      // The buttons stay as they were; the next change reads the history again.
    }
  }

  /** Sums over this tab's requests: what the usage panel shows. */
  get totals(): {
    requests: number;
    promptTokens: number;
    cacheReadTokens: number;
    cacheWriteTokens: number;
    outputTokens: number;
    cacheHitRate: number;
    inputCostUsd: number;
    costUsd: number;
    priced: boolean;
    /** Requests with a known price: 0 with some requests means the cost is unknown, not $0. */
    pricedRequests: number;
  } {
    let promptTokens = 0;
    let cacheReadTokens = 0;
    let cacheWriteTokens = 0;
    let outputTokens = 0;
    let inputCostUsd = 0;
    let costUsd = 0;
    let priced = this.#usage.length > 0;
    let pricedRequests = 0;
    for (const report of this.#usage) {
      promptTokens += report.promptTokens;
      cacheReadTokens += report.usage.cacheReadTokens;
      cacheWriteTokens += report.usage.cacheWriteTokens;
      outputTokens += report.usage.outputTokens;
      inputCostUsd += report.inputCostUsd ?? 0;
      costUsd += report.costUsd ?? 0;
      if (report.costUsd === null) priced = false;
      else pricedRequests += 1;
    }
    return {
      requests: this.#usage.length,
      promptTokens,
      cacheReadTokens,
      cacheWriteTokens,
      outputTokens,
      cacheHitRate: promptTokens > 0 ? cacheReadTokens / promptTokens : 0,
      inputCostUsd,
      costUsd,
      priced,
      pricedRequests,
    };
  }

  /**
   * Loads the chat options and reopens the last conversation at its newest continuation.
   * Sending waits for this, so a message typed early never races the reopening.
   */
  start(): Promise<void> {
    this.#starting ??= this.#start();
    return this.#starting;
  }

  async #start(): Promise<void> {
    this.#options = await this.#repository.get(CHAT_OPTIONS_SETTING_KEY, DEFAULT_CHAT_OPTIONS, isChatOptions);
    const sessionId = await this.#repository.get(CHAT_SESSION_SETTING_KEY, '', isSessionId);
    if (sessionId === '') return;
    try {
      await (await this.#loadRuntime()).resume(sessionId);
      await this.#refreshHistory();
    } catch (error) {
      this.#error = `Could not reopen the last conversation: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  async send(text: string): Promise<TurnResult> {
    return this.#run((runtime, signal) => runtime.sendUserMessage(text, signal));
  }

  async retry(): Promise<TurnResult> {
    return this.#run((runtime, signal) => runtime.retry(signal));
  }

  /** Cancels the running turn; the conversation stays as it was before the partial reply. */
  stop(): void {
    this.#controller?.abort(new DOMException('Stopped by the user', 'AbortError'));
  }

  newChat(): void {
    if (this.busy) return;
    this.#runtime?.startNewSession();
    void this.#repository.delete(CHAT_SESSION_SETTING_KEY);
  }

  async updateOptions(patch: Partial<ChatOptions>): Promise<void> {
    const next = { ...this.#options, ...patch };
    if (!isChatOptions(next)) return;
    this.#options = next;
    await this.#repository.set(CHAT_OPTIONS_SETTING_KEY, next);
  }

  async #run(
    operation: (runtime: ConversationRuntime, signal: AbortSignal) => Promise<TurnResult>,
  ): Promise<TurnResult> {
    const controller = new AbortController();
    this.#controller = controller;
    this.#error = null;
    this.#canRetry = false;
    this.#reopenedUnanswered = false;
    this.#status = 'sending';
    try {
      await this.start();
      const runtime = await this.#loadRuntime();
      this.#claim = true;
      // An operation on the conversation as it is (a retry, /compress on a resumed chat) shows it at once.
      if (runtime.sessionId !== null) this.#publish(runtime);
      const result = await operation(runtime, controller.signal);
      if (result.outcome === 'failed') this.#error = result.message;
      await this.#refreshHistory();
      this.#canRetry = result.outcome !== 'completed' && runtime.sessionId !== null;
      return result;
    } catch (error) {
      const message = `The chat could not start: ${error instanceof Error ? error.message : String(error)}`;
      this.#error = message;
      return { outcome: 'failed', message };
    } finally {
      // A claim no conversation took (no key, nothing stored) does not outlive the operation.
      this.#claim = false;
      if (this.#controller === controller) this.#controller = null;
      this.#status = 'idle';
      this.#compactionReason = null;
      this.#streamingText = '';
      this.#review?.close();
      this.#review = null;
    }
  }

  #push(entry: ChatEntryDraft): void {
    this.#entries = [...this.#entries, { ...entry, id: this.#nextId++ }];
  }

  #notice(text: string, tone: 'info' | 'warning' | 'error'): void {
    this.#push({ kind: 'notice', text, tone });
  }

  /** Replaces the conversation value with the runtime's, and tells the workspace. */
  #publish(runtime: ConversationRuntime): void {
    const model = this.#dependencies.baseSettings().provider?.model ?? null;
    const conversation: ChatConversation = {
      sessionId: runtime.sessionId,
      title: runtime.sessionTitle,
      model,
      systemPrompt: runtime.systemPrompt,
      messages: runtime.messages,
      state: runtime.compressorState,
      lastSessionPromptTokens: runtime.lastSessionPromptTokens,
      learnedContextLength: model === null ? null : runtime.learnedContextLength(model),
    };
    this.#conversation = conversation;
    const claim = this.#claim && conversation.sessionId !== null;
    if (claim) this.#claim = false;
    this.#dependencies.onConversation?.(conversation, claim);
  }

  #apply(event: ConversationEvent, runtime: ConversationRuntime): void {
    this.#applyToLog(event, runtime);
    switch (event.type) {
      case 'session-change':
      case 'message-append':
      case 'usage':
      case 'compaction-end':
      case 'turn-end':
        this.#publish(runtime);
        return;
      default:
        return;
    }
  }

  #applyToLog(event: ConversationEvent, runtime: ConversationRuntime): void {
    switch (event.type) {
      case 'session-change':
        this.#sessionId = event.sessionId;
        this.#sessionTitle = event.title;
        this.#compactionCount = runtime.compressorState.compressionCount;
        if (event.reason === 'new' && event.sessionId !== null)
          void this.#repository.set(CHAT_SESSION_SETTING_KEY, event.sessionId);
        // A compaction keeps this tab's scrollback; opening or starting a conversation replaces it,
        // and so do undo and redo (the history itself changed), which keep this tab's usage.
        if (event.reason !== 'compression') {
          this.#entries = event.messages.map((message) => ({ kind: 'message', id: this.#nextId++, message }));
          if (event.reason === 'new' || event.reason === 'resume') {
            this.#usage = [];
            this.#lastWarning = null;
          }
          // A turn that failed before a reload left the conversation at the unanswered message.
          this.#reopenedUnanswered =
            event.reason === 'resume' && event.sessionId !== null && isAwaitingReply(event.messages);
          this.#canRetry = this.#reopenedUnanswered;
        }
        if (event.reason === 'new' && event.sessionId === null) this.#history = null;
        return;
      case 'turn-start':
        this.#status = 'sending';
        return;
      case 'message-append':
        this.#streamingText = '';
        this.#push({ kind: 'message', message: event.message });
        return;
      case 'text-delta':
        this.#status = 'streaming';
        this.#streamingText += event.text;
        return;
      case 'stream-reset':
        if (this.#streamingText !== '') this.#notice(`Partial reply discarded — ${event.reason}`, 'warning');
        this.#streamingText = '';
        return;
      case 'tool-call':
        this.#status = 'running-tools';
        return;
      case 'tool-result':
        return;
      case 'usage':
        this.#usage = [...this.#usage, event];
        return;
      case 'compaction-start':
        this.#status = 'compacting';
        this.#compactionReason = event.reason;
        return;
      case 'compaction-end': {
        const { type: _type, ...report } = event;
        this.#compactionReason = null;
        this.#status = 'sending';
        this.#compactionCount = runtime.compressorState.compressionCount;
        if (report.warning) this.#lastWarning = report.warning;
        this.#push({ kind: 'compaction', report });
        return;
      }
      case 'retry':
        this.#status = 'retrying';
        this.#notice(event.message, 'warning');
        return;
      case 'recovery':
        this.#notice(event.message, 'warning');
        return;
      case 'notice':
        // The repeated-compression warning is shown on the compaction row itself.
        if (event.message !== this.#lastWarning) this.#notice(event.message, 'info');
        return;
      case 'error':
        this.#notice(event.message, 'error');
        return;
      case 'turn-end':
        return;
    }
  }
}
