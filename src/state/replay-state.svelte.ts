import { routeForModel } from '../core/lab/route-for-model.ts';
import { INITIAL_COMPRESSOR_STATE } from '../core/compression/compressor-state.ts';
import { isolateBidi } from '../core/shared/isolate-bidi.ts';
import type { SummaryRequest } from '../core/compression/summarizer.ts';
import type { Message } from '../core/transcript/message.ts';
import type { TranscriptMetadata } from '../core/transcript/transcript.ts';
import {
  workerCallback,
  type ComputeClient,
  type CompressReply,
  type LabPlanOptions,
  type PlanReply,
} from '../io/compute/compute-client.ts';
import type { LabSessionStore, StoredSessionRef } from './lab-session-store.ts';
import { REPLAY_PHASES, ReplayRun } from './replay-run.svelte.ts';
import type { PlanState } from './plan-state.svelte.ts';
import type { ProviderState } from './provider-state.svelte.ts';
import type { SettingsState } from './settings-state.svelte.ts';
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
    this.#operation += 1;
    this.runs = [];
    this.saveMessage = '';
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
    });
    this.runs = [...this.runs, run];
    await this.#runPhases(run, REPLAY_PHASES.length);
  }

  /**
   * Stores each unsaved run of the chain as a continuation of the one before: the transcript
   * on screen ends with reason `compression` and the first result continues it, and so on.
   */
  async saveAsContinuation(): Promise<void> {
    const { sessions } = this.#dependencies;
    if (!sessions) {
      this.saveMessage = 'Session storage is not available in this build.';
      return;
    }
    if (this.saving || !this.current?.compressed) return;
    this.saving = true;
    const operation = this.#operation;
    try {
      let parentId = await this.#dependencies.currentSessionId();
      if (!parentId) throw new Error('the transcript on screen could not be stored first');
      let last: StoredSessionRef | null = null;
      for (const run of this.runs) {
        if (!run.compressed) break;
        if (!run.saved) {
          const result = run.compression!;
          const systemPrompt =
            result.messages[0]?.role === 'system' ? stringContent(result.messages[0].content) : null;
          run.saved = await sessions.storeContinuation(
            parentId,
            $state.snapshot(result.messages) as typeof result.messages,
            {
              compressorState: result.state,
              systemPrompt,
            },
          );
        }
        parentId = run.saved.id;
        last = run.saved;
      }
      if (operation === this.#operation && last) {
        this.saveMessage = `Saved as continuation session “${isolateBidi(last.title ?? last.id)}”.`;
      }
    } catch (error) {
      this.saveMessage = `Could not save: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.saving = false;
    }
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
  } | null {
    const run = this.current;
    const base = this.#dependencies.transcript.metadata;
    if (!run?.compressed || !base) return null;
    return {
      documentId: resultDocumentId(run.number),
      messages: run.compression!.messages,
      metadata: {
        ...base,
        title: `${base.title ?? 'Transcript'} (compressed ×${run.number})`,
        compactionPoints: [],
        segments: [],
      },
    };
  }

  #settingsKey(): string {
    const { settings, provider } = this.#dependencies;
    return JSON.stringify([
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
    this.#operation += 1;
    this.saveMessage = '';
    const run = new ReplayRun({
      number: 1,
      documentId: CURRENT_DOCUMENT_ID,
      messageCount: view.count,
      compressorState: INITIAL_COMPRESSOR_STATE,
      settingsKey: this.#settingsKey(),
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
        run.plan = planned.value;
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
          run.prompt = request.prompt;
          run.streamedSummary = '';
          return remote.summarize(request);
        })
      : undefined;
    run.summarizerLabel = remote?.label ?? 'Offline summariser (no LLM)';
    run.offline = remote === null;
    const planOptions = this.#planOptions(run);
    const compressed = await compute.run<CompressReply>((api) =>
      api.compress(
        run.documentId,
        {
          strategy: planOptions.strategy,
          config: planOptions.config,
          state: run.compressorState,
          today: this.#dependencies.today(),
          mainModel: provider.config.model,
          // A recorded session is priced as its own model ran it; a demo or chat as the provider's.
          route: routeForModel(this.#dependencies.transcript.metadata?.model ?? provider.config.model),
          ...(settings.compression.focusTopic.trim()
            ? { focusTopic: settings.compression.focusTopic.trim() }
            : {}),
          ...(run.plan ? { currentTokens: run.plan.triggerTokens } : {}),
          openResultAs: resultDocumentId(run.number),
        },
        remote?.label ?? null,
        summarize,
      ),
    );
    // The reply of a large transcript takes a while to unpack (a prompt of megabytes); drawing it
    // waits for the next task, so unpacking and drawing are not one long frame.
    await nextTask();
    if (!stillCurrent()) return;
    if (!compressed.ok) throw new Error(compressed.error.message);
    run.compression = compressed.value;
    run.prompt = compressed.value.summaries[0]?.prompt ?? null;
    run.summarizerLabel = compressed.value.summarizerLabel;
    run.offline = compressed.value.offline;
    run.status = 'done';
  }

  #planOptions(run: ReplayRun): LabPlanOptions {
    return { ...this.#dependencies.plan.options(), state: run.compressorState };
  }
}

const resultDocumentId = (runNumber: number): string => `replay-${runNumber}`;

const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

function stringContent(content: unknown): string | null {
  return typeof content === 'string' ? content : null;
}
