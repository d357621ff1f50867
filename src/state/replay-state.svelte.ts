import { unpackLabPlan } from '../core/lab/packed-pruned-outputs.ts';
import { nextTask } from './next-task.ts';
import type { LabCompression } from '../core/lab/lab-compression.ts';
import { compactionEpochDetails, type CompactionEpochDetails } from '../core/sessions/compaction-epoch.ts';
import type { Result } from '../core/shared/result.ts';
import type { TokenEncoding } from '../core/tokens/estimator.ts';
import { EMPTY_USAGE } from '../core/usage/canonical-usage.ts';
import { bodiesChanged } from '../io/runtime/compaction-review.ts';
import { CompactionReviewState, type ReviewOutcome } from './compaction-review-state.svelte.ts';
import { INITIAL_COMPRESSOR_STATE } from '../core/compression/compressor-state.ts';
import { isolateBidi } from '../core/shared/isolate-bidi.ts';
import { summaryPromptPreview } from '../core/lab/summary-prompt-preview.ts';
import type { SummaryRequest } from '../core/compression/summarizer.ts';
import type { Message } from '../core/transcript/message.ts';
import type { TranscriptMetadata } from '../core/transcript/transcript.ts';
import {
  workerCallback,
  type ComputeClient,
  type CompressReply,
  type LabCompressOptions,
  type LabPlanOptions,
  type PlanReply,
} from '../io/compute/compute-client.ts';
import type { LabSessionStore } from './lab-session-store.ts';
import { REPLAY_PHASES, ReplayRun } from './replay-run.svelte.ts';
import type { PlanState } from './plan-state.svelte.ts';
import type { ProviderState } from './provider-state.svelte.ts';
import type { SettingsState } from './settings-state.svelte.ts';
import type { ProbeCall, ProbeState } from './probe-state.svelte.ts';
import { CURRENT_DOCUMENT_ID, type TranscriptState } from './transcript-state.svelte.ts';

export interface ReplayDependencies {
  compute: ComputeClient;
  transcript: TranscriptState;
  settings: SettingsState;
  provider: ProviderState;
  plan: PlanState;
  sessions: LabSessionStore | null;
  /** The stored session of the transcript on screen, storing it first if needed (demo). */
  currentSessionId: () => Promise<string | null>;
  /** Today as `YYYY-MM-DD` (2026-07's temporal anchoring). */
  today: () => string;
  /** The transcript on screen is a read-only view (a stored epoch): it cannot be saved. */
  readOnly?: () => boolean;
  /**
   * The transcript on screen is a chat conversation's request context: its first message is the
   * session's system prompt, which the session keeps on its row, not among its messages.
   */
  isConversation?: () => boolean;
}

/**
 * The replay (flow 5): the four compression phases on the transcript on screen, all at once
 * or one step at a time, then again on the result (iterative re-compression), and saving the
 * chain as continuation sessions. Phases 1–2 come from the worker's plan; phase 3 calls the
 * summariser (the provider's, streamed, when a key is set; otherwise the offline one in the
 * worker); phase 4 shows the assembled result.
 */
export class ReplayState {
  readonly #dependencies: ReplayDependencies;
  #operation = 0;

  runs = $state.raw<readonly ReplayRun[]>([]);
  saveMessage = $state('');
  saving = $state(false);
  /** The run being reviewed before it is saved; null when none is. */
  review = $state.raw<CompactionReviewState | null>(null);
  /** Each run's probe, made on first use. */
  readonly #probes = new WeakMap<ReplayRun, ProbeState>();
  #openProbes: ProbeState[] = [];

  constructor(dependencies: ReplayDependencies) {
    this.#dependencies = dependencies;
  }

  get current(): ReplayRun | null {
    return this.runs[this.runs.length - 1] ?? null;
  }

  get busy(): boolean {
    const status = this.current?.status;
    return status === 'planning' || status === 'summarising';
  }

  /** The settings changed since the shown run was made. */
  get stale(): boolean {
    const run = this.current;
    return run !== null && this.runs[0]!.settingsKey !== this.#settingsKey();
  }

  /** Forgets every run (the transcript on screen changed). */
  reset(): void {
    this.#cancelProbes();
    this.#operation += 1;
    this.runs = [];
    this.saveMessage = '';
    this.review?.close();
    this.review = null;
  }

  /** Runs all four phases on the transcript on screen. */
  async runAll(): Promise<void> {
    const run = this.#startOnTranscript();
    if (!run) return;
    await this.#runPhases(run, REPLAY_PHASES.length);
  }

  /** Reveals the next phase, starting a run on the transcript on screen if there is none. */
  async nextStep(): Promise<void> {
    let run = this.current;
    if (!run || (run.revealed >= REPLAY_PHASES.length && !this.busy) || run.status === 'error') {
      run = this.#startOnTranscript();
      if (!run) return;
    }
    if (this.busy) return;
    await this.#runPhases(run, run.revealed + 1);
  }

  previousStep(): void {
    const run = this.current;
    if (run && run.revealed > 1) run.revealed -= 1;
  }

  /** Compresses the last result again, as Hermes does when a session fills up a second time. */
  async replayAgain(): Promise<void> {
    const previous = this.current;
    if (!previous?.compressed || this.busy) return;
    const result = previous.compression!;
    const run = new ReplayRun({
      number: previous.number + 1,
      documentId: resultDocumentId(previous.number),
      messageCount: result.messages.length,
      compressorState: result.state,
      settingsKey: previous.settingsKey,
      // The pins follow their messages into the result: compressing it again keeps them too.
      pinned: result.pinned,
    });
    this.runs = [...this.runs, run];
    await this.#runPhases(run, REPLAY_PHASES.length);
  }

  /**
   * Saves the chain: each unsaved run, in order, stops for review (the summary in an editor with
   * what it loses and costs), then Commit stores it — in place in the stored session, or as a
   * continuation of the one before, as the compaction mode says — with its epoch. The transcript
   * on screen is stored first if it is not (the demo). An edited summary is committed by running
   * the same compaction again with the reviewed text; the runs after it replayed the unedited
   * result, so they are dropped from the chain.
   */
  saveAsContinuation(): void {
    if (!this.#dependencies.sessions) {
      this.saveMessage = 'Session storage is not available in this build.';
      return;
    }
    if (this.#dependencies.readOnly?.()) {
      this.saveMessage =
        'This is a read-only view of a stored compaction; open the conversation itself in Sessions to replay and save it.';
      return;
    }
    if (this.saving || this.review?.open || !this.current?.compressed) return;
    this.saveMessage = '';
    this.#reviewNext();
  }

  /** Opens the review of the first unsaved run; says where the chain went once all are saved. */
  #reviewNext(): void {
    const run = this.runs.find((candidate) => candidate.compressed && !candidate.saved);
    if (!run) {
      const last = [...this.runs].reverse().find((candidate) => candidate.saved)?.saved ?? null;
      this.review = null;
      if (last)
        this.saveMessage =
          this.#dependencies.settings.compactionMode === 'in-place'
            ? `Saved in place in session “${isolateBidi(last.title ?? last.id)}” (it keeps its id; undo in Sessions).`
            : `Saved as continuation session “${isolateBidi(last.title ?? last.id)}”.`;
      return;
    }
    const { compute, settings } = this.#dependencies;
    const encoding = this.#exactEncoding();
    const operation = this.#operation;
    this.review = new CompactionReviewState({
      title: `replay ${run.number}${this.runs.length > 1 ? ` of ${this.runs.length}` : ''}`,
      mode: settings.compactionMode,
      original: run.compression!,
      note: null,
      preview: (bodies) => this.#recompute(run, bodies, false),
      countTokens: (text) => compute.run<number>((api) => api.countText(text, encoding)),
      encoding,
      decide: (outcome) =>
        operation === this.#operation ? this.#decide(run, outcome) : Promise.resolve(null),
    });
  }

  async #decide(run: ReplayRun, outcome: ReviewOutcome): Promise<string | null> {
    const sessions = this.#dependencies.sessions!;
    if (outcome.kind === 'discard') {
      this.review = null;
      this.saveMessage = 'Not saved: the review was discarded. The stored session is unchanged.';
      return null;
    }
    this.saving = true;
    try {
      let compression = run.compression!;
      let originalBodies: string[] | null = null;
      if (bodiesChanged(compression, outcome.bodies)) {
        const edited = await this.#recompute(run, outcome.bodies, true);
        if (!edited.ok) return `Could not apply the edited summary: ${edited.error.message}`;
        if (edited.value.skipped)
          return `With this text the compaction would be refused (${edited.value.notes[0] ?? edited.value.skipped}).`;
        originalBodies = compression.summaries.map((summary) => summary.body);
        compression = {
          ...edited.value,
          summarizerLabel: compression.summarizerLabel,
          offline: compression.offline,
        };
        run.compression = compression;
        // Later runs compacted the unedited result; they no longer follow from this one.
        this.runs = this.runs.slice(0, this.runs.indexOf(run) + 1);
      }
      const index = this.runs.indexOf(run);
      const previous = index > 0 ? this.runs[index - 1]!.saved : null;
      const sessionId = previous?.id ?? (await this.#dependencies.currentSessionId());
      if (!sessionId) return 'Could not save: the transcript on screen could not be stored first.';
      const messages = $state.snapshot<typeof compression.messages>(compression.messages);
      const systemPrompt = messages[0]?.role === 'system' ? stringContent(messages[0].content) : null;
      // A chat keeps its system prompt on the session: storing it as a message would send it twice.
      const stored =
        systemPrompt !== null && this.#dependencies.isConversation?.() ? messages.slice(1) : messages;
      run.saved = await sessions.commitCompaction(sessionId, stored, {
        mode: this.#dependencies.settings.compactionMode,
        compressorState: compression.state,
        systemPrompt,
        epoch: this.#epochDetails(run, compression, originalBodies),
        pinned: [...compression.pinned],
      });
      this.#reviewNext();
      return null;
    } catch (error) {
      return `Could not save: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.saving = false;
    }
  }

  /**
   * The run's compaction with these summary bodies and no summariser call (the same request the
   * run made, `summaryOverrides` added), carrying the original call's usage for the ledger.
   * `openResult` replaces the run's result document, so "replay again" continues from it.
   */
  #recompute(
    run: ReplayRun,
    bodies: readonly string[],
    openResult: boolean,
  ): Promise<Result<LabCompression, { message: string }>> {
    const original = run.compression!;
    const ledger = original.assessment?.ledger;
    return this.#dependencies.compute.run<CompressReply>((api) =>
      api.compress(
        run.documentId,
        {
          ...this.#compressOptions(run),
          summaryOverrides: [...bodies],
          summaryUsage: ledger
            ? {
                ...EMPTY_USAGE,
                inputTokens: ledger.summaryInputTokens,
                outputTokens: ledger.summaryOutputTokens,
                requestCount: original.summarizerCalls,
              }
            : null,
          summaryMeasured: original.assessment?.summaryMeasured ?? false,
          ...(openResult ? { openResultAs: resultDocumentId(run.number) } : {}),
        },
        null,
      ),
    );
  }

  #epochDetails(
    run: ReplayRun,
    compression: LabCompression,
    originalBodies: readonly string[] | null,
  ): CompactionEpochDetails {
    const { settings, provider } = this.#dependencies;
    const config = this.#planOptions(run).config;
    return compactionEpochDetails({
      reason: 'replay',
      attemptId: null,
      reviewed: true,
      fates: compression.fates,
      messagesAfter: compression.messages.length,
      summaries: compression.summaries,
      originalBodies,
      requestTokensBefore: compression.requestTokensBefore,
      requestTokensAfter: compression.requestTokensAfter,
      assessment: compression.assessment,
      settings: {
        strategy: settings.strategy.name,
        strategyLabel: settings.strategy.label,
        mode: settings.compactionMode,
        contextLength: config.contextLength,
        thresholdPercent: config.thresholdPercent,
        targetRatio: config.targetRatio,
        protectFirstN: config.protectFirstN,
        protectLastN: config.protectLastN,
        strategyOptions: { ...(config.strategyOptions ?? {}) },
        focusTopic: settings.compression.focusTopic.trim() || null,
        summarizer: compression.summarizerLabel,
        model: this.#dependencies.transcript.metadata?.model ?? (provider.config.model || null),
      },
    });
  }

  /**
   * Probe mode for a finished run (ROUND2 §3): its plan, its compaction request and its input, with
   * the provider and the session's usage records. Its code loads on first use (a lazy chunk). Null
   * for a run without a plan or result.
   */
  async probeFor(run: ReplayRun): Promise<ProbeState | null> {
    if (!run.done || !run.plan) return null;
    const existing = this.#probes.get(run);
    if (existing) return existing;
    const { ProbeState } = await import('./probe-state.svelte.ts');
    const { compute, provider, settings, transcript } = this.#dependencies;
    const index = this.runs.indexOf(run);
    const previous = index > 0 ? this.runs[index - 1]!.compression : null;
    const compression = run.compression!;
    const probe = new ProbeState({
      compute,
      provider,
      source: {
        plan: run.plan,
        replay: {
          summaryCalls: compression.summarizerCalls,
          summaryInputTokens: compression.assessment?.ledger.summaryInputTokens ?? 0,
          summaryOutputTokens: compression.assessment?.ledger.summaryOutputTokens ?? 0,
          tokensAfter: compression.tokensAfter,
        },
        replayOffline: compression.offline,
        options: this.#compressOptions(run),
        tools: transcript.metadata?.tools ?? [],
        preset: settings.preset,
        loadMessages: () =>
          previous ? Promise.resolve(previous.messages) : this.#transcriptMessages(run.messageCount),
      },
      recordUsage: (call) => this.#recordProbeUsage(call),
      seed: () => crypto.getRandomValues(new Uint32Array(1))[0]!,
    });
    this.#probes.set(run, probe);
    this.#openProbes.push(probe);
    return probe;
  }

  /** A probe of runs that are gone stops: its calls would answer for a replay no longer shown. */
  #cancelProbes(): void {
    for (const probe of this.#openProbes) probe.cancel();
    this.#openProbes = [];
  }

  /** Every message of the transcript on screen, read from the worker in batches. */
  async #transcriptMessages(count: number): Promise<Message[]> {
    const view = this.#dependencies.transcript.view;
    if (!view || view.count !== count) throw new Error('The transcript on screen changed since this replay.');
    const messages: Message[] = [];
    const BATCH = 500;
    for (let start = 0; start < count; start += BATCH) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(BATCH, count - start) }, (_, offset) => view.message(start + offset)),
      );
      for (const message of batch) {
        if (message === null) throw new Error('The transcript on screen changed since this replay.');
        messages.push(message);
      }
    }
    return messages;
  }

  /** A probe's billed call, recorded on the stored session of the transcript on screen. */
  async #recordProbeUsage(call: ProbeCall): Promise<string | null> {
    const sessions = this.#dependencies.sessions;
    if (!sessions?.addProbeUsage)
      return 'Session storage is not available: the probe’s usage is not recorded.';
    const sessionId = await this.#dependencies.currentSessionId();
    if (!sessionId)
      return 'The transcript on screen is not stored (or is a read-only view): the probe’s usage is not recorded.';
    await sessions.addProbeUsage(sessionId, call.usage, call.costUsd ?? 0, call.model);
    return null;
  }

  #exactEncoding(): TokenEncoding {
    const estimator = this.#dependencies.settings.estimator;
    return estimator === 'rough' ? 'o200k_base' : estimator;
  }

  /**
   * The latest result, to open in the workspace: the worker document it was opened as, its
   * metadata, and its messages (the page has them from the compaction) should the worker have
   * to start over.
   */
  resultDocument(): {
    documentId: string;
    metadata: TranscriptMetadata;
    messages: readonly Message[];
    /** Where the pinned messages stand in the result. */
    pinned: readonly number[];
  } | null {
    const run = this.current;
    const base = this.#dependencies.transcript.metadata;
    if (!run?.compressed || !base) return null;
    return {
      documentId: resultDocumentId(run.number),
      messages: run.compression!.messages,
      pinned: run.compression!.pinned,
      metadata: {
        ...base,
        title: `${base.title ?? 'Transcript'} (compressed ×${run.number})`,
        compactionPoints: [],
        segments: [],
      },
    };
  }

  #settingsKey(): string {
    const { settings, provider, transcript } = this.#dependencies;
    return JSON.stringify([
      transcript.pins.indices,
      settings.strategyName,
      settings.compression,
      settings.estimator,
      provider.hasKey,
      provider.config.model,
      provider.config.auxiliaryModel,
    ]);
  }

  #startOnTranscript(): ReplayRun | null {
    const view = this.#dependencies.transcript.view;
    if (!view) return null;
    this.#cancelProbes();
    this.#operation += 1;
    this.saveMessage = '';
    this.review?.close();
    this.review = null;
    const run = new ReplayRun({
      number: 1,
      documentId: CURRENT_DOCUMENT_ID,
      messageCount: view.count,
      // A chat conversation on screen replays from where its compressor is (its compaction count…).
      compressorState: this.#dependencies.plan.options().state ?? INITIAL_COMPRESSOR_STATE,
      settingsKey: this.#settingsKey(),
      pinned: [...this.#dependencies.transcript.pins.indices],
    });
    this.runs = [run];
    return run;
  }

  /** Brings `run` up to `target` revealed phases, computing what they need. */
  async #runPhases(run: ReplayRun, target: number): Promise<void> {
    const operation = this.#operation;
    const stillCurrent = (): boolean => operation === this.#operation && this.runs.includes(run);
    try {
      if (!run.plan) {
        run.status = 'planning';
        await this.#dependencies.transcript.ensureOpen();
        const planned = await this.#dependencies.compute.run<PlanReply>((api) =>
          api.plan(run.documentId, this.#planOptions(run)),
        );
        if (!stillCurrent()) return;
        if (!planned.ok) throw new Error(planned.error.message);
        run.plan = unpackLabPlan(planned.value);
        run.status = 'idle';
      }
      run.revealed = Math.max(run.revealed, Math.min(target, 2));
      if (target >= 3 && !run.compression) {
        run.revealed = 3;
        await this.#summarise(run, stillCurrent);
        if (!stillCurrent()) return;
      }
      run.revealed = Math.max(run.revealed, target);
      if (run.compression) run.status = 'done';
    } catch (error) {
      if (!stillCurrent()) return;
      run.status = 'error';
      run.error = error instanceof Error ? error.message : String(error);
    }
  }

  async #summarise(run: ReplayRun, stillCurrent: () => boolean): Promise<void> {
    const { compute, settings, provider } = this.#dependencies;
    run.status = 'summarising';
    run.prompt = null;
    run.streamedSummary = '';
    let summarizer = null;
    try {
      summarizer = await provider.createSummarizer(settings.preset, {
        onDelta: (text) => {
          if (stillCurrent()) run.streamedSummary += text;
        },
        onNotice: (notice) => run.addNotice(notice),
      });
    } catch (error) {
      run.addNotice(
        `The provider could not be used (${error instanceof Error ? error.message : String(error)}); the offline summariser wrote the summary instead.`,
      );
    }
    const remote = summarizer;
    const summarize = remote
      ? workerCallback((request: SummaryRequest) => {
          const preview = summaryPromptPreview(request.prompt);
          run.prompt = {
            chars: preview.chars,
            preview: preview.text,
            full: () => Promise.resolve(request.prompt),
          };
          run.streamedSummary = '';
          return remote.summarize(request);
        })
      : undefined;
    run.summarizerLabel = remote?.label ?? 'Offline summariser (no LLM)';
    run.offline = remote === null;
    const compressed = await compute.run<CompressReply>((api) =>
      api.compress(
        run.documentId,
        { ...this.#compressOptions(run), openResultAs: resultDocumentId(run.number) },
        remote?.label ?? null,
        summarize,
      ),
    );
    // The reply of a large transcript takes a while to unpack; drawing it waits for the next task,
    // so unpacking and drawing are not one long frame.
    await nextTask();
    if (!stillCurrent()) return;
    if (!compressed.ok) throw new Error(compressed.error.message);
    run.compression = compressed.value;
    // The prompt itself stays in the worker (megabytes for a long transcript) until it is copied.
    const preview = compressed.value.promptPreview;
    const resultId = resultDocumentId(run.number);
    run.prompt = preview
      ? {
          chars: preview.chars,
          preview: preview.text,
          full: async () => (await compute.run((api) => api.summaryPrompt(resultId))) ?? preview.text,
        }
      : null;
    run.summarizerLabel = compressed.value.summarizerLabel;
    run.offline = compressed.value.offline;
    run.status = 'done';
  }

  /** The compaction request of a run: the plan's strategy and settings, the run's state. */
  #compressOptions(run: ReplayRun): LabCompressOptions {
    const { settings, provider } = this.#dependencies;
    const planOptions = this.#planOptions(run);
    return {
      strategy: planOptions.strategy,
      config: planOptions.config,
      state: run.compressorState,
      today: this.#dependencies.today(),
      mainModel: provider.config.model,
      // A transcript that names the model it was recorded with (an import, the demo) is priced as
      // that model ran it; one that names none, as the provider's (the Compare tab prices the same).
      route: provider.assessmentRoute(this.#dependencies.transcript.metadata?.model),
      ...(settings.compression.focusTopic.trim()
        ? { focusTopic: settings.compression.focusTopic.trim() }
        : {}),
      ...(run.plan ? { currentTokens: run.plan.triggerTokens } : {}),
      ...(run.pinned.length > 0 ? { pinned: [...run.pinned] } : {}),
    };
  }

  #planOptions(run: ReplayRun): LabPlanOptions {
    const options = {
      ...this.#dependencies.plan.options(),
      state: run.compressorState,
      pinned: [...run.pinned],
    };
    // The live loop's view applies to the chat on screen, not to a replay's own results.
    return run.number === 1 ? options : { ...options, live: null };
  }
}

const resultDocumentId = (runNumber: number): string => `replay-${runNumber}`;

function stringContent(content: unknown): string | null {
  return typeof content === 'string' ? content : null;
}
