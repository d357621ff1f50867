/**
 * The live chat loop with compression in it (SPEC §1 flow 6), non-reactive so it runs in Node
 * tests against the mock provider. One turn:
 *
 * 1. the user message is stored at once (it is never lost, whatever fails later);
 * 2. session hygiene at 85% of the window (§4.5), then the preflight (§4.1, up to 3 passes);
 * 3. each request: the pre-API check (§4.2), the system prompt + cache markers + wire
 *    sanitiser, a streamed call with transient retries and overflow recovery (§7.3, at most
 *    3 compactions per turn shared with the pre-API check);
 * 4. usage read back into the compressor state and the session totals with its cost;
 * 5. browser tools run when the model calls them, results through the size budgets, then the
 *    post-tool check on the real prompt count (§4.3), and round again (at most
 *    `MAX_TOOL_ROUNDS_PER_TURN`).
 *
 * Cancelling (the signal) stops at once. A partly streamed reply is dropped, never stored: the
 * stored conversation then ends with the user message (or a complete tool round), so Retry
 * simply runs the turn again. Every compaction rotates the session; the runtime continues in
 * the child.
 */
import type { Strategy } from '../../core/strategies/strategy.ts';
import { strategyFor } from '../../core/strategies/strategy-registry.ts';
import type { CanonicalUsage } from '../../core/usage/canonical-usage.ts';
import { assessmentRoute } from '../llm/assessment-route.ts';
import { liveAssessment } from './live-assessment.ts';
import { createCompressorState, type CompressorState } from '../../core/compression/compressor-state.ts';
import { createOfflineSummarizer } from '../../core/compression/offline-summarizer.ts';
import { planOnce } from '../../core/lab/create-planner.ts';
import type { Summarizer } from '../../core/compression/summarizer.ts';
import type { CompressionConfig } from '../../core/config/compression-config.ts';
import { keptExchangesTailBudget } from '../../core/loop/kept-exchanges-tail-budget.ts';
import {
  describeCompressCommandError,
  manualCompressRefusal,
  parseCompressCommand,
  type CompressCommand,
} from '../../core/loop/parse-compress-command.ts';
import { resetCalibration } from '../../core/loop/reset-calibration.ts';
import { lookupModel } from '../../core/models/model-catalog.ts';
import type { BudgetConfig } from '../../core/persistence/budget-config.ts';
import type { Preset } from '../../core/presets/preset.ts';
import { judgeCompressionProgress } from '../../core/providers/judge-compression-progress.ts';
import { planErrorRecovery } from '../../core/providers/plan-error-recovery.ts';
import { formatCount } from '../../core/shared/format-count.ts';
import { estimateMessagesTokensRough } from '../../core/tokens/estimate-messages-tokens-rough.ts';
import { estimateRequestTokensRough } from '../../core/tokens/estimate-request-tokens-rough.ts';
import { estimateToolsTokensRough } from '../../core/tokens/estimate-tools-tokens-rough.ts';
import { BROWSER_TOOL_SCHEMAS } from '../../core/tools/browser-tool-schemas.ts';
import { isAwaitingReply } from '../../core/transcript/is-awaiting-reply.ts';
import { hasToolCalls, type Message } from '../../core/transcript/message.ts';
import type { ChatClient, ChatRequest, ChatResponse } from '../llm/chat-client.ts';
import { isLlmError } from '../llm/llm-error.ts';
import { createLlmSummarizer } from '../llm/llm-summarizer.ts';
import { hermesProviderName, type ProviderSettings } from '../llm/provider-settings.ts';
import { abortable } from './abortable.ts';
import { idleDeadline } from './idle-deadline.ts';
import { buildChatRequest, chatMaxTokens } from './build-chat-request.ts';
import { runBrowserTools } from './browser-tools.ts';
import {
  compactionApplied,
  ConversationEvents,
  type CompactionReason,
  type CompactionReport,
  type TurnOutcome,
} from '../../core/loop/conversation-event.ts';
import type { CompactionHistory, ConversationStore, ToolResultStore } from './conversation-store.ts';
import { needsReview, type CompactionReviewer } from './compaction-review.ts';
import {
  changeCompactionHistory,
  describeHistoryChange,
  type HistoryDirection,
} from './compaction-history.ts';
import { observedChatClient } from './observed-chat-client.ts';
import {
  runHygiene,
  runPostToolCheck,
  runPreApiCheck,
  runPreflight,
  type TriggerHost,
  type TurnCompactionBudget,
} from './compaction-triggers.ts';
import { runCompaction, type CompactionOutcome, type Compactor } from './run-compaction.ts';
import { readUsage } from './read-usage.ts';
import type { RuntimeSettings } from './runtime-settings.ts';
import { describeTurnFailure, formatWait, TurnFailure } from './turn-failure.ts';

/** Model ↔ tool rounds in one turn before the loop stops and hands back to the user. */
export const MAX_TOOL_ROUNDS_PER_TURN = 8;
/**
 * A chat request with no sign of life (no answer, no streamed delta) for this long is given up
 * as a timeout, which is retried like any transient failure. Generous: a long prompt can take
 * minutes to its first token; a reply that keeps streaming is never cut.
 */
export const DEFAULT_REQUEST_IDLE_TIMEOUT_MS = 300_000;
/** Summary calls keep this much of the window free beyond the prompt estimate (it is rough). */
const SUMMARY_WINDOW_MARGIN_TOKENS = 1024;
/** A summary is never asked to fit in less than this, however full the window. */
const MIN_SUMMARY_OUTPUT_TOKENS = 1024;
/** Words of the first message used as the session title. */
const TITLE_MAX_CHARACTERS = 60;
const NEW_SESSION_SUGGESTION =
  'Start a new session (New chat) to continue, or switch to a model with a larger context window.';

export interface ConversationRuntimeDependencies {
  readonly store: ConversationStore;
  readonly toolResults: ToolResultStore;
  /** Read at the start of every turn and every compaction. */
  readonly settings: () => RuntimeSettings;
  readonly createClient: (settings: ProviderSettings, preset: Preset) => Promise<ChatClient>;
  /** Runs the one compaction operation (in the worker in the app). */
  readonly compact: Compactor;
  readonly now: () => number;
  readonly random: () => number;
  readonly sleep: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
  /** Today as `YYYY-MM-DD` for the 2026-07 summary's temporal anchor. */
  readonly today?: () => string;
  /** Overrides the window-derived tool-result budgets (tests). */
  readonly toolBudget?: BudgetConfig;
  /** Overrides `DEFAULT_REQUEST_IDLE_TIMEOUT_MS` (tests). */
  readonly requestIdleTimeoutMs?: number;
  /**
   * Shows a compaction for review before it is committed (`compaction-review.ts` says which);
   * without one, every compaction commits at once.
   */
  readonly reviewer?: CompactionReviewer;
}

export interface TurnResult {
  readonly outcome: TurnOutcome;
  /** Why it failed, in words for the user; null on success. */
  readonly message: string | null;
}

/** Everything one turn needs, fixed at its start except what overflow recovery changes. */
interface Turn extends TurnCompactionBudget {
  readonly id: number;
  readonly settings: RuntimeSettings;
  readonly client: ChatClient | null;
  readonly signal: AbortSignal;
  retryAttempts: number;
  /** Ephemeral `max_tokens` after an output-cap error (the window is unchanged). */
  maxTokensOverride: number | null;
}

export class ConversationRuntime {
  readonly events = new ConversationEvents();
  readonly #deps: ConversationRuntimeDependencies;
  #sessionId: string | null = null;
  #sessionTitle: string | null = null;
  #systemPrompt = '';
  #messages: Message[] = [];
  #state: CompressorState = createCompressorState();
  /**
   * Hygiene's "actual" count (Hermes' `session_entry.last_prompt_tokens`): the last real prompt
   * count of this session, 0 after a compaction until the next response reports one.
   */
  #lastSessionPromptTokens = 0;
  /** Usage of the last chat response of this session: the live ledger reads its cache figures. */
  #lastChatUsage: CanonicalUsage | null = null;
  /** Windows learned from overflow errors, by model (Hermes keeps them per model too). */
  readonly #learnedContextLengths = new Map<string, number>();
  /** The stored session's history revision as this tab last saw it (see `SessionRow.historyRevision`). */
  #historyRevision = 0;
  #busy = false;
  #turnCounter = 0;
  #attemptCounter = 0;
  #clientKey = '';
  #client: ChatClient | null = null;

  constructor(dependencies: ConversationRuntimeDependencies) {
    this.#deps = dependencies;
  }

  get sessionId(): string | null {
    return this.#sessionId;
  }

  get sessionTitle(): string | null {
    return this.#sessionTitle;
  }

  get messages(): readonly Message[] {
    return this.#messages;
  }

  get compressorState(): CompressorState {
    return this.#state;
  }

  /** The system prompt the conversation's requests carry (kept on the session, not in `messages`). */
  get systemPrompt(): string {
    return this.#systemPrompt;
  }

  /** Hygiene's count: the last reported prompt count of this session, 0 after a compaction. */
  get lastSessionPromptTokens(): number {
    return this.#lastSessionPromptTokens;
  }

  /** A window an overflow error revealed for `model`, smaller than the configured one; null if none. */
  learnedContextLength(model: string): number | null {
    return this.#learnedContextLengths.get(model) ?? null;
  }

  get busy(): boolean {
    return this.#busy;
  }

  /** The window compaction works with: the configured one, or a smaller one an error revealed. */
  contextLengthFor(settings: RuntimeSettings): number {
    const learned = settings.provider ? this.#learnedContextLengths.get(settings.provider.model) : undefined;
    return learned !== undefined
      ? Math.min(learned, settings.compression.contextLength)
      : settings.compression.contextLength;
  }

  /**
   * Opens a stored conversation at its newest continuation. The compression tip comes first:
   * 2026-04's resume rule alone would reopen a parent that kept its own rows.
   */
  async resume(sessionId: string): Promise<void> {
    const tip = await this.#deps.store.getCompressionTip(sessionId);
    await this.#load(await this.#deps.store.resolveResumeSessionId(tip), 'resume');
  }

  /** Forgets the current conversation; the next message starts a new session. */
  startNewSession(): void {
    if (this.#busy) return;
    this.#sessionId = null;
    this.#sessionTitle = null;
    this.#messages = [];
    // A real session boundary: nothing per-session leaks into the next conversation.
    this.#state = this.#strategy().onSessionEnd(this.#state);
    this.#lastSessionPromptTokens = 0;
    this.#lastChatUsage = null;
    this.#historyRevision = 0;
    this.events.emit({ type: 'session-change', sessionId: null, title: null, reason: 'new', messages: [] });
  }

  /** Sends a message, or runs `/compress [focus]` when the text is that command. */
  async sendUserMessage(text: string, signal: AbortSignal): Promise<TurnResult> {
    const command = parseCompressCommand(text);
    if (command !== null) {
      if (!command.ok) return this.#refuse(describeCompressCommandError(command.error));
      return this.compressNow(command.value, signal);
    }
    if (text.trim() === '') return this.#refuse('Type a message first.');
    return this.#exclusive(async () => {
      const settings = this.#deps.settings();
      const client = await this.#clientFor(settings);
      if (client === null) return failed('No API key is set. Add one in the provider settings to chat.');
      await this.#ensureSession(settings, text);
      await this.#append([{ role: 'user', content: text }]);
      return this.#runTurn(settings, client, signal);
    });
  }

  /** Runs the last turn again after a failure or a cancel (the user message is already stored). */
  async retry(signal: AbortSignal): Promise<TurnResult> {
    return this.#exclusive(async () => {
      if (this.#sessionId === null || !isAwaitingReply(this.#messages))
        return failed('There is no unanswered message to retry.');
      const settings = this.#deps.settings();
      const client = await this.#clientFor(settings);
      if (client === null) return failed('No API key is set. Add one in the provider settings to chat.');
      return this.#runTurn(settings, client, signal);
    });
  }

  /** Manual `/compress [focus]` / `/compress here [N]` (forced: bypasses the automatic gates). */
  async compressNow(command: CompressCommand, signal: AbortSignal): Promise<TurnResult> {
    return this.#exclusive(async () => {
      const refusal = manualCompressRefusal(this.#messages.length);
      if (this.#sessionId === null || refusal !== null)
        return failed(refusal ?? 'There is no conversation to compress yet.');
      const settings = this.#deps.settings();
      const client = await this.#clientFor(settings).catch(() => null);
      const turn = this.#newTurn(settings, client, signal);
      const config = this.#config(settings);
      const tailTokenBudgetOverride =
        command.keepExchanges !== null
          ? keptExchangesTailBudget(this.#messages, command.keepExchanges, turn.preset)
          : undefined;
      if (command.preview) {
        const plan = planOnce(turn.strategy, this.#messages, {
          config,
          state: this.#state,
          estimator: 'rough',
          nowMs: this.#deps.now(),
        });
        const summarised = plan.fateTotals.summarized.messages + plan.fateTotals.dropped.messages;
        const message = `Preview: /compress (${turn.strategy.label}) would summarise or drop ${formatCount(summarised)} of ${this.#messages.length} messages (${formatCount(plan.totalTokens)} tokens now, about ${formatCount(plan.after.tokens)} after).`;
        this.events.emit({ type: 'notice', message });
        return { outcome: 'completed', message };
      }
      try {
        const report = await this.#compact(turn, 'manual', {
          focusTopic: command.focusTopic,
          force: true,
          ...(tailTokenBudgetOverride !== undefined ? { tailTokenBudgetOverride } : {}),
        });
        const message = compactionApplied(report)
          ? null
          : report.outcome === 'already-compacted'
            ? 'Another tab already compacted or changed this conversation; continuing where it is now.'
            : report.outcome === 'discarded'
              ? 'The compaction was discarded; nothing changed.'
              : `Nothing was compressed (${report.notes[0] ?? report.skippedReason ?? report.summaryError ?? 'no change'}).`;
        return { outcome: 'completed', message };
      } catch (error) {
        return this.#endWithError(turn, error);
      }
    });
  }

  /** Reverts the conversation's newest compaction (`expectedEpochId`: the one the user saw offered). */
  undoCompaction(expectedEpochId?: number): Promise<TurnResult> {
    return this.#changeHistory('undo', expectedEpochId);
  }

  /** Applies again the compaction undone last. */
  redoCompaction(expectedEpochId?: number): Promise<TurnResult> {
    return this.#changeHistory('redo', expectedEpochId);
  }

  /** The epochs of the conversation on screen and what undo and redo would change; null before it exists. */
  async compactionHistory(): Promise<CompactionHistory | null> {
    return this.#sessionId === null ? null : this.#deps.store.compactionHistory(this.#sessionId);
  }

  async #changeHistory(direction: HistoryDirection, expectedEpochId?: number): Promise<TurnResult> {
    return this.#exclusive(async () => {
      if (this.#sessionId === null) return failed('There is no conversation yet.');
      const outcome = await changeCompactionHistory(
        this.#deps.store,
        this.#sessionId,
        direction,
        expectedEpochId,
      );
      switch (outcome.kind) {
        case 'changed': {
          await this.#load(outcome.session.id, direction);
          const message = describeHistoryChange(direction, outcome.epoch);
          this.events.emit({ type: 'notice', message });
          return { outcome: 'completed', message };
        }
        case 'refused':
          // Another tab moved the conversation on: show where it is now.
          if (outcome.tipSessionId !== null) await this.#load(outcome.tipSessionId, 'resume');
          else if (expectedEpochId !== undefined) await this.#load(this.#sessionId, 'resume');
          return this.#refuse(outcome.message);
        case 'busy':
          return this.#refuse(outcome.message);
      }
    });
  }

  // ---- the turn ----------------------------------------------------------------------------

  async #runTurn(settings: RuntimeSettings, client: ChatClient, signal: AbortSignal): Promise<TurnResult> {
    const turn = this.#newTurn(settings, client, signal);
    this.events.emit({ type: 'turn-start', turnId: turn.id });
    try {
      await runHygiene(this.#triggerHost(turn), turn);
      await runPreflight(this.#triggerHost(turn), turn);
      for (let round = 1; ; round++) {
        await runPreApiCheck(this.#triggerHost(turn), turn);
        const response = await this.#callModel(turn, client);
        await this.#recordUsage(response, 'chat', this.#sessionId!, settings);
        if (response.stopReason === 'length' && !hasToolCalls(response.message)) {
          this.events.emit({
            type: 'notice',
            message: `The reply stopped at the output limit (max_tokens ${chatMaxTokens(settings, turn.maxTokensOverride)}).`,
          });
        }
        if (!hasToolCalls(response.message)) {
          await this.#append([response.message]);
          break;
        }
        for (const call of response.message.tool_calls ?? []) this.events.emit({ type: 'tool-call', call });
        const tools = await runBrowserTools(
          response.message.tool_calls ?? [],
          {
            toolResults: this.#deps.toolResults,
            search: (query, limit) => this.#deps.store.search(query, limit),
          },
          {
            preset: turn.preset,
            contextLength: this.contextLengthFor(settings),
            ...(this.#deps.toolBudget ? { budget: this.#deps.toolBudget } : {}),
            signal,
          },
        );
        // The call and its results are stored together, so a cancel never leaves a call unanswered.
        await this.#append([response.message, ...tools.messages]);
        for (const message of tools.messages) {
          this.events.emit({
            type: 'tool-result',
            toolCallId: message.tool_call_id ?? '',
            name: message.name ?? '',
            content: typeof message.content === 'string' ? message.content : '',
            persisted: tools.persistedIds.has(message.tool_call_id ?? ''),
          });
        }
        signal.throwIfAborted();
        await runPostToolCheck(this.#triggerHost(turn), turn);
        if (round >= MAX_TOOL_ROUNDS_PER_TURN) {
          this.events.emit({
            type: 'notice',
            message: `Stopped after ${MAX_TOOL_ROUNDS_PER_TURN} tool rounds; send a message to continue.`,
          });
          break;
        }
      }
      this.events.emit({ type: 'turn-end', turnId: turn.id, outcome: 'completed', message: null });
      return { outcome: 'completed', message: null };
    } catch (error) {
      return this.#endWithError(turn, error);
    }
  }

  #endWithError(turn: Turn, error: unknown): TurnResult {
    if (turn.signal.aborted) {
      this.events.emit({ type: 'stream-reset', reason: 'Stopped. The partial reply was not kept.' });
      this.events.emit({ type: 'turn-end', turnId: turn.id, outcome: 'cancelled', message: null });
      return { outcome: 'cancelled', message: null };
    }
    const message = describeTurnFailure(error);
    this.events.emit({ type: 'stream-reset', reason: message });
    this.events.emit({ type: 'error', message });
    this.events.emit({ type: 'turn-end', turnId: turn.id, outcome: 'failed', message });
    return { outcome: 'failed', message };
  }

  /** One model response, with transient retries and overflow / output-cap recovery (§7.3). */
  async #callModel(turn: Turn, client: ChatClient): Promise<ChatResponse> {
    for (;;) {
      turn.signal.throwIfAborted();
      const request = this.#buildRequest(turn);
      let streamed = false;
      // The clients report this deadline's abort as a `timeout` LlmError; Stop passes through.
      const deadline = idleDeadline(
        turn.signal,
        this.#deps.requestIdleTimeoutMs ?? DEFAULT_REQUEST_IDLE_TIMEOUT_MS,
      );
      try {
        const response = await abortable(
          client.send(
            request,
            {
              onTextDelta: (text) => {
                deadline.touch();
                if (turn.signal.aborted) return;
                streamed = true;
                this.events.emit({ type: 'text-delta', text });
              },
              onToolCallDelta: () => deadline.touch(),
              onReasoningDelta: () => deadline.touch(),
            },
            deadline.signal,
          ),
          turn.signal,
        );
        turn.retryAttempts = 0;
        return response;
      } catch (error) {
        if (turn.signal.aborted) throw error;
        if (streamed) this.events.emit({ type: 'stream-reset', reason: describeTurnFailure(error) });
        await this.#recover(turn, error, request);
      } finally {
        deadline.dispose();
      }
    }
  }

  /** Decides and carries out the recovery of one failed call; throws when the turn must end. */
  async #recover(turn: Turn, error: unknown, request: ChatRequest): Promise<void> {
    if (!isLlmError(error) || error.classification === undefined) throw error;
    const classified = error.classification;
    const contextLength = this.contextLengthFor(turn.settings);
    const requestTokens =
      estimateMessagesTokensRough(request.messages, turn.preset) +
      estimateToolsTokensRough(request.tools, turn.preset);
    const action = planErrorRecovery(
      {
        classified,
        message: `${error.message} ${classified.message}`,
        compressionAttempts: turn.compressionAttempts,
        retryAttempts: turn.retryAttempts,
        contextLength,
        requestTokens,
        compressionEnabled: turn.settings.compression.enabled,
        retryAfterMs: error.retryAfterMs,
        random: this.#deps.random(),
      },
      turn.preset,
    );
    switch (action.kind) {
      case 'retry-after-backoff':
        turn.retryAttempts = action.retryAttempts;
        this.events.emit({
          type: 'retry',
          attempt: action.retryAttempts,
          delayMs: action.delayMs,
          message: `${describeTurnFailure(error)} Retrying in ${formatWait(action.delayMs)} (attempt ${action.retryAttempts + 1} of 3).`,
        });
        await this.#deps.sleep(action.delayMs, turn.signal);
        return;
      case 'retry-with-max-tokens':
        turn.compressionAttempts = action.compressionAttempts;
        turn.maxTokensOverride = action.maxTokens;
        this.events.emit({
          type: 'recovery',
          action: 'retry-with-max-tokens',
          message: `The reply would not fit the output room the provider allows; retrying with max_tokens ${formatCount(action.maxTokens)} (nothing compressed).`,
          contextLength,
          maxTokens: action.maxTokens,
          attempt: action.compressionAttempts,
        });
        return;
      case 'compress-and-retry': {
        turn.compressionAttempts = action.compressionAttempts;
        let contextLowered = false;
        if (
          action.newContextLength !== undefined &&
          action.newContextLength < contextLength &&
          turn.settings.provider
        ) {
          this.#learnedContextLengths.set(turn.settings.provider.model, action.newContextLength);
          this.#state = resetCalibration(this.#state);
          contextLowered = true;
        }
        this.events.emit({
          type: 'recovery',
          action: 'compress-and-retry',
          message: `The request did not fit the context window (${classified.message}). ${contextLowered ? `Window lowered to ${formatCount(this.contextLengthFor(turn.settings))} tokens; c` : 'C'}ompressing and retrying (attempt ${action.compressionAttempts} of 3).`,
          contextLength: this.contextLengthFor(turn.settings),
          maxTokens: null,
          attempt: action.compressionAttempts,
        });
        const before = {
          count: this.#messages.length,
          tokens: estimateMessagesTokensRough(this.#messages, turn.preset),
        };
        await this.#compact(turn, 'overflow', {});
        const verdict = judgeCompressionProgress(
          {
            reason: overflowReason(classified.reason),
            messagesBefore: before.count,
            messagesAfter: this.#messages.length,
            tokensBefore: before.tokens,
            tokensAfter: estimateMessagesTokensRough(this.#messages, turn.preset),
            contextLowered,
            approxTokens: requestTokens,
            canStripToolImages: false,
          },
          turn.preset,
        );
        if (verdict.kind === 'fail') throw new TurnFailure(`${verdict.message} ${NEW_SESSION_SUGGESTION}`);
        await this.#deps.sleep(verdict.delayMs, turn.signal);
        return;
      }
      case 'fail':
        throw new TurnFailure(
          action.compressionExhausted ? `${action.message} ${NEW_SESSION_SUGGESTION}` : action.message,
        );
    }
  }

  #buildRequest(turn: Turn): ChatRequest {
    return buildChatRequest({
      messages: this.#messages,
      systemPrompt: this.#systemPrompt,
      settings: { ...turn.settings, provider: turn.settings.provider! },
      tools: turn.tools,
      contextLength: this.contextLengthFor(turn.settings),
      maxTokensOverride: turn.maxTokensOverride,
    });
  }

  // ---- compaction ----------------------------------------------------------------------------

  async #compact(
    turn: Turn,
    reason: CompactionReason,
    options: {
      readonly focusTopic?: string | null;
      readonly force?: boolean;
      readonly tailTokenBudgetOverride?: number;
      readonly currentTokens?: number;
    },
  ): Promise<CompactionReport> {
    const sessionId = this.#sessionId!;
    this.events.emit({ type: 'compaction-start', reason });
    const attemptId = `${sessionId}:${this.#deps.now()}:${++this.#attemptCounter}`;
    // Every summariser response prices the ledger; each is recorded as usage once.
    const summaryResponses: ChatResponse[] = [];
    const unrecorded: ChatResponse[] = [];
    const summarizer = this.#summarizer(turn, (response) => {
      summaryResponses.push(response);
      unrecorded.push(response);
    });
    const recordSummaryUsage = async (): Promise<void> => {
      // Summary calls are billed whether or not the compaction is committed.
      for (const response of unrecorded.splice(0))
        await this.#recordUsage(response, 'summary', sessionId, turn.settings, attemptId);
    };
    const tokensBefore = estimateRequestTokensRough(
      this.#messages,
      this.#systemPrompt,
      turn.tools,
      turn.preset,
    );
    const messagesBefore = this.#messages.length;
    // The cache figures of the last response describe the history before this compaction.
    const lastUsage = this.#lastChatUsage;
    const review =
      this.#deps.reviewer !== undefined && needsReview(reason, turn.settings.reviewCompactions ?? false);
    let outcome: CompactionOutcome;
    try {
      outcome = await runCompaction(
        {
          reason,
          sessionId,
          messages: this.#messages,
          systemPrompt: this.#systemPrompt,
          tools: turn.tools,
          state: this.#state,
          config: this.#config(turn.settings),
          strategy: turn.strategy,
          mainModel: turn.settings.provider?.model ?? null,
          today: this.#deps.today?.() ?? null,
          route: turn.settings.provider
            ? assessmentRoute({
                ...turn.settings.provider,
                cacheTtl: turn.settings.compression.cacheTtl,
                promptCaching: turn.settings.promptCaching,
              })
            : null,
          mode: turn.settings.compactionMode ?? turn.preset.sessions.compaction,
          review,
          attemptId,
          ...options,
        },
        {
          store: this.#deps.store,
          compact: this.#deps.compact,
          summarizer,
          signal: turn.signal,
          reviewer: this.#deps.reviewer ?? null,
          assess: (result, before) =>
            liveAssessment({
              settings: turn.settings,
              preset: turn.preset,
              result,
              before,
              summaryResponses,
              lastUsage,
            }),
          onSummarised: recordSummaryUsage,
        },
      );
    } finally {
      await recordSummaryUsage();
    }
    // The report when nothing changed; a commit or another tab's compaction override it below.
    let report: CompactionReport = {
      reason,
      outcome: 'skipped',
      reviewed: false,
      edited: false,
      tokensBefore,
      tokensAfter: tokensBefore,
      messagesBefore,
      messagesAfter: messagesBefore,
      summary: null,
      compressionCount: this.#state.compressionCount,
      warning: null,
      summarizerLabel: summarizer.label,
      usedFallback: false,
      summaryError: null,
      skippedReason: null,
      focusTopic: options.focusTopic ?? null,
      notes: [],
      sessionId,
      sessionTitle: this.#sessionTitle,
      parentSessionId: sessionId,
      assessment: null,
    };
    const tokensNow = (): number =>
      estimateRequestTokensRough(this.#messages, this.#systemPrompt, turn.tools, turn.preset);
    switch (outcome.kind) {
      case 'committed': {
        const { result, session } = outcome;
        this.#sessionId = session.id;
        this.#sessionTitle = session.title;
        this.#historyRevision = session.historyRevision;
        this.#messages = result.messages;
        this.#state = result.state;
        // The session's prompt count described the old transcript.
        this.#lastSessionPromptTokens = 0;
        this.#lastChatUsage = null;
        this.events.emit({
          type: 'session-change',
          sessionId: session.id,
          title: session.title,
          reason: 'compression',
          messages: this.#messages,
        });
        report = {
          ...report,
          outcome: outcome.mode === 'in-place' ? 'in-place' : 'rotated',
          reviewed: outcome.reviewed,
          edited: outcome.edited,
          // What was compacted: the stored transcript, read under the lock.
          messagesBefore: outcome.input.length,
          tokensAfter: tokensNow(),
          messagesAfter: this.#messages.length,
          notes: result.notes,
          summary: result.summaries[0]?.body ?? null,
          compressionCount: result.state.compressionCount,
          warning: result.warning,
          usedFallback: result.summaries.some((summary) => summary.fallback),
          summaryError: result.state.lastSummaryError,
          sessionId: session.id,
          sessionTitle: session.title,
          assessment: result.assessment,
        };
        break;
      }
      case 'skipped':
        this.#state = outcome.result.state;
        await this.#deps.store.saveCompressorState(sessionId, this.#state);
        report = {
          ...report,
          outcome: outcome.result.skipped === 'summary-failed-aborted' ? 'aborted' : 'skipped',
          compressionCount: outcome.result.state.compressionCount,
          summaryError: outcome.result.state.lastSummaryError,
          skippedReason: outcome.result.skipped,
          notes: outcome.result.notes,
        };
        break;
      case 'discarded':
        report = {
          ...report,
          outcome: 'discarded',
          reviewed: true,
          summary: outcome.result.summaries[0]?.body ?? null,
          skippedReason: 'discarded in review',
          assessment: outcome.result.assessment,
        };
        if (outcome.mustCompact) {
          this.events.emit({ type: 'compaction-end', ...report });
          throw new TurnFailure(
            `The compaction was discarded, and the request does not fit the context window without it, so it was not sent. ${NEW_SESSION_SUGGESTION}`,
          );
        }
        break;
      case 'failed':
        // The compaction itself broke (not the summary: that falls back or aborts). Nothing was
        // stored; the turn ends with the reason, as any other unexpected failure does.
        throw new TurnFailure(outcome.message);
      case 'busy':
        report = { ...report, outcome: 'busy', skippedReason: outcome.message };
        break;
      case 'already-compacted':
        await this.#load(outcome.tipSessionId, 'compression');
        report = {
          ...report,
          outcome: 'already-compacted',
          tokensAfter: tokensNow(),
          messagesAfter: this.#messages.length,
          compressionCount: this.#state.compressionCount,
          skippedReason: 'another tab compacted or changed this conversation first',
          sessionId: this.#sessionId!,
          sessionTitle: this.#sessionTitle,
        };
        break;
    }
    this.events.emit({ type: 'compaction-end', ...report });
    if (report.warning) this.events.emit({ type: 'notice', message: report.warning });
    return report;
  }

  #summarizer(turn: Turn, onResponse: (response: ChatResponse) => void): Summarizer {
    if (turn.client === null) return createOfflineSummarizer();
    const contextLength = this.contextLengthFor(turn.settings);
    return createLlmSummarizer({
      client: observedChatClient(turn.client, {
        onResponse,
        maxTokensFor: (request) =>
          Math.max(
            MIN_SUMMARY_OUTPUT_TOKENS,
            contextLength -
              estimateMessagesTokensRough(request.messages, turn.preset) -
              SUMMARY_WINDOW_MARGIN_TOKENS,
          ),
      }),
      contextLengthOf: (model) => lookupModel(model).contextLength,
      onNotice: (message) => this.events.emit({ type: 'notice', message }),
    });
  }

  // ---- usage ---------------------------------------------------------------------------------

  async #recordUsage(
    response: ChatResponse,
    purpose: 'chat' | 'summary',
    sessionId: string,
    settings: RuntimeSettings,
    compactionId: string | null = null,
  ): Promise<void> {
    const strategy = strategyFor(settings.strategy);
    const reading = readUsage(response, purpose, {
      state: this.#state,
      settings,
      strategy,
      thresholdTokens: strategy.trigger(this.#config(settings)).thresholdTokens,
    });
    if (purpose === 'chat') {
      this.#state = reading.state;
      if (reading.promptTokens !== null) this.#lastSessionPromptTokens = reading.promptTokens;
      if (response.usage.raw !== null) this.#lastChatUsage = response.usage.canonical;
      await this.#deps.store.saveCompressorState(sessionId, this.#state);
    }
    const { report } = reading;
    await this.#deps.store.addUsage(sessionId, report.usage, report.costUsd ?? 0, report.model, {
      compaction: purpose === 'summary',
      compactionId,
    });
    this.events.emit({ type: 'usage', ...report });
  }

  // ---- sessions and plumbing -------------------------------------------------------------------

  async #load(sessionId: string, reason: 'resume' | 'compression' | 'undo' | 'redo'): Promise<void> {
    const store = this.#deps.store;
    const [session, messages] = await Promise.all([
      store.getSession(sessionId),
      store.loadMessages(sessionId),
    ]);
    this.#sessionId = sessionId;
    this.#sessionTitle = session?.title ?? null;
    this.#systemPrompt = session?.systemPrompt ?? '';
    this.#messages = messages;
    const stored = session?.compressorState ?? createCompressorState();
    // Resuming is a session start; a rotation, undo or redo continues with the state it stored.
    this.#state = reason === 'resume' ? this.#strategy().onSessionStart(stored, 'resume') : stored;
    this.#historyRevision = session?.historyRevision ?? 0;
    this.#lastSessionPromptTokens = Math.max(0, this.#state.lastPromptTokens);
    this.#lastChatUsage = null;
    this.events.emit({ type: 'session-change', sessionId, title: this.#sessionTitle, reason, messages });
  }

  async #ensureSession(settings: RuntimeSettings, firstMessage: string): Promise<void> {
    if (this.#sessionId !== null) return;
    const oneLine = firstMessage.replace(/\s+/g, ' ').trim();
    const title =
      oneLine.length > TITLE_MAX_CHARACTERS ? `${oneLine.slice(0, TITLE_MAX_CHARACTERS - 1)}…` : oneLine;
    const provider = settings.provider;
    const session = await this.#deps.store.createSession({
      title,
      model: provider?.model ?? null,
      systemPrompt: settings.systemPrompt,
      provider: provider ? hermesProviderName(provider) : null,
      baseUrl: provider?.baseUrl ?? null,
    });
    this.#sessionId = session.id;
    this.#sessionTitle = session.title;
    this.#systemPrompt = settings.systemPrompt;
    this.#messages = [];
    this.#state = strategyFor(settings.strategy).onSessionStart(this.#state, 'new');
    this.#historyRevision = session.historyRevision;
    this.#lastSessionPromptTokens = 0;
    this.#lastChatUsage = null;
    this.events.emit({
      type: 'session-change',
      sessionId: session.id,
      title: session.title,
      reason: 'new',
      messages: [],
    });
  }

  /**
   * Stores messages, then shows them. When another tab rotated the session meanwhile, the
   * conversation moves to the tip: a new user message simply goes there; anything else of a
   * running turn would land out of context, so the turn ends and the user can retry there.
   */
  async #append(messages: readonly Message[]): Promise<void> {
    let appended = await this.#deps.store.appendMessages(this.#sessionId!, messages, this.#historyRevision);
    if (!appended.ok) {
      await this.#load(appended.error.tipSessionId, 'compression');
      if (!(messages.length === 1 && messages[0]!.role === 'user'))
        throw new TurnFailure(
          'Another tab compacted or changed this conversation while this reply was running. It continues where it is now: press Retry.',
        );
      appended = await this.#deps.store.appendMessages(this.#sessionId!, messages, this.#historyRevision);
      if (!appended.ok) throw new TurnFailure('The conversation kept moving in another tab; try again.');
    }
    this.#messages = [...this.#messages, ...messages];
    for (const message of messages) this.events.emit({ type: 'message-append', message });
  }

  async #clientFor(settings: RuntimeSettings): Promise<ChatClient | null> {
    const provider = settings.provider;
    if (provider === null || provider.apiKey.trim() === '') return null;
    const key = JSON.stringify([
      provider.provider,
      provider.baseUrl,
      provider.apiKey,
      provider.model,
      settings.strategy.preset.name,
    ]);
    if (this.#client === null || key !== this.#clientKey) {
      this.#client = await this.#deps.createClient(provider, settings.strategy.preset);
      this.#clientKey = key;
    }
    return this.#client;
  }

  /** The conversation as the compaction triggers read and update it. */
  #triggerHost(turn: Turn): TriggerHost {
    // Accessors, not a snapshot: a compaction replaces the messages and state mid-turn. Inside
    // the object's getters `this` is the object, so they reach the runtime through this alias.
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const runtime = this;
    return {
      get messages() {
        return runtime.#messages;
      },
      get systemPrompt() {
        return runtime.#systemPrompt;
      },
      get state() {
        return runtime.#state;
      },
      set state(next: CompressorState) {
        runtime.#state = next;
      },
      get lastSessionPromptTokens() {
        return runtime.#lastSessionPromptTokens;
      },
      config: () => this.#config(turn.settings),
      now: () => this.#deps.now(),
      compact: (reason, options) => this.#compact(turn, reason, options),
    };
  }

  /** The strategy of the settings now in force (session boundaries happen between turns). */
  #strategy(): Strategy {
    return strategyFor(this.#deps.settings().strategy);
  }

  #config(settings: RuntimeSettings): CompressionConfig {
    return { ...settings.compression, contextLength: this.contextLengthFor(settings) };
  }

  #newTurn(settings: RuntimeSettings, client: ChatClient | null, signal: AbortSignal): Turn {
    return {
      id: ++this.#turnCounter,
      settings,
      strategy: strategyFor(settings.strategy),
      preset: settings.strategy.preset,
      tools: BROWSER_TOOL_SCHEMAS,
      client,
      signal,
      compressionAttempts: 0,
      retryAttempts: 0,
      preflightBlocked: false,
      preflightDeferred: false,
      maxTokensOverride: null,
    };
  }

  #refuse(message: string): TurnResult {
    this.events.emit({ type: 'notice', message });
    return { outcome: 'failed', message };
  }

  /** One operation at a time: a second send while a turn runs is refused, not interleaved. */
  async #exclusive(operation: () => Promise<TurnResult>): Promise<TurnResult> {
    if (this.#busy) return this.#refuse('Wait for the current reply to finish, or press Stop.');
    this.#busy = true;
    try {
      return await operation();
    } catch (error) {
      const message = describeTurnFailure(error);
      this.events.emit({ type: 'error', message });
      return { outcome: 'failed', message };
    } finally {
      this.#busy = false;
    }
  }
}

function failed(message: string): TurnResult {
  return { outcome: 'failed', message };
}

function overflowReason(reason: string): 'context_overflow' | 'payload_too_large' | 'long_context_tier' {
  return reason === 'payload_too_large' || reason === 'long_context_tier' ? reason : 'context_overflow';
}
