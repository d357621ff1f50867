import { INITIAL_COMPRESSOR_STATE } from '../core/compression/compressor-state.ts';
import { nextTask } from './next-task.ts';
import type { LabPlan } from '../core/lab/lab-plan.ts';
import { unpackLabPlan } from '../core/lab/packed-pruned-outputs.ts';
import { buildTokenAxis, messageAtOffset, offsetOfMessage, type TokenAxis } from '../core/lab/token-axis.ts';
import type { ComputeClient, LabPlanOptions, PlanReply } from '../io/compute/compute-client.ts';
import type { ProviderState } from './provider-state.svelte.ts';
import type { SettingsState } from './settings-state.svelte.ts';
import type { TranscriptState } from './transcript-state.svelte.ts';
import type { WorkspaceConversation } from './workspace-conversation.ts';

export type PlanStatus = 'idle' | 'planning' | 'ready' | 'error';

export interface PlanDependencies {
  compute: ComputeClient;
  transcript: TranscriptState;
  settings: SettingsState;
  provider: ProviderState;
  /** The chat conversation on screen, planned as its live loop decides; null for a transcript. */
  conversation?: () => WorkspaceConversation | null;
}

/**
 * The live compression plan of the transcript on screen, recomputed in the worker whenever a
 * setting or the transcript changes. Latest wins: while one request is in the worker, further
 * changes only mark the plan dirty, and one more request (with the newest settings) follows;
 * a result that was superseded meanwhile is dropped rather than drawn.
 */
export class PlanState {
  readonly #dependencies: PlanDependencies;
  #inFlight = false;
  #dirty = false;
  /** When the oldest change not yet drawn was made (performance.now()). */
  #changedAt: number | null = null;

  plan = $state.raw<LabPlan | null>(null);
  status = $state<PlanStatus>('idle');
  error = $state<string | null>(null);
  /** From a settings change to its plan arriving on the page, milliseconds (shown for transparency). */
  latencyMs = $state<number | null>(null);

  /** The plan's token axis, for mapping map positions to messages. */
  readonly axis: TokenAxis | null = $derived.by(() => {
    const plan = this.plan;
    if (!plan) return null;
    const systemEnd = plan.regions[0]?.end ?? 0;
    return buildTokenAxis(plan.tokensPerMessage, systemEnd, plan.toolsTokens);
  });

  constructor(dependencies: PlanDependencies) {
    this.#dependencies = dependencies;
    // A pin changes what the compaction keeps: the map and the explanation follow it.
    dependencies.transcript.pins.onChange(() => this.refresh());
  }

  /**
   * The options the worker plans with, from the current settings and the pins on screen. A chat conversation is planned
   * at the window its loop compacts at (its model's, or a smaller one an overflow revealed), with
   * its compressor state, and judged as the loop judges it.
   */
  options(): LabPlanOptions {
    const { settings, provider, transcript } = this.#dependencies;
    const conversation = this.#dependencies.conversation?.() ?? null;
    const route = provider.compressionRoute(conversation?.model ?? undefined);
    const learned = conversation?.learnedContextLength ?? null;
    return {
      strategy: settings.strategyName,
      config: settings.compressionConfig(
        learned !== null ? { ...route, contextLength: Math.min(route.contextLength, learned) } : route,
      ),
      state: conversation?.state ?? INITIAL_COMPRESSOR_STATE,
      estimator: settings.estimator,
      nowMs: Date.now(),
      pinned: [...transcript.pins.indices],
      live: conversation ? { lastSessionPromptTokens: conversation.lastSessionPromptTokens } : null,
    };
  }

  /** Asks for a new plan; cheap to call on every keystroke. */
  refresh(): void {
    this.#changedAt ??= performance.now();
    if (this.#inFlight) {
      this.#dirty = true;
      return;
    }
    void this.#run();
  }

  /** The message under a point of the map's token axis, or -1. */
  messageAtOffset(offset: number): number {
    return this.axis ? messageAtOffset(this.axis, offset) : -1;
  }

  offsetOfMessage(index: number): number {
    return this.axis ? offsetOfMessage(this.axis, index) : 0;
  }

  async #run(): Promise<void> {
    const { compute, transcript } = this.#dependencies;
    this.#inFlight = true;
    try {
      do {
        this.#dirty = false;
        await transcript.ensureOpen();
        const current = transcript.view;
        const revision = transcript.revision;
        // The transcript is still being opened; it announces itself when it is ready.
        if (!current || revision === null) break;
        const changedAt = this.#changedAt;
        this.status = 'planning';
        const options = this.options();
        const result = await compute.run<PlanReply>((api) => api.plan(transcript.documentId, options));
        // Copying a 33,736-message plan in (15–30 ms) and drawing the map from it (~35 ms) were
        // one main-thread task of 65–70 ms; the map is drawn in the next task.
        await nextTask();
        if (this.#dirty) continue;
        if (transcript.view !== current || transcript.revision !== revision) continue;
        if (!result.ok) {
          this.status = 'error';
          this.error = result.error.message;
          break;
        }
        if (result.value.revision !== revision) continue;
        this.plan = unpackLabPlan(result.value);
        this.status = 'ready';
        this.error = null;
        if (changedAt !== null) this.latencyMs = performance.now() - changedAt;
        this.#changedAt = null;
      } while (this.#dirty);
    } catch (error) {
      this.status = 'error';
      this.error = error instanceof Error ? error.message : String(error);
    } finally {
      this.#inFlight = false;
    }
  }
}
