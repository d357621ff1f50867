import { toolsForHistory } from '../core/tools/tools-for-history.ts';
import type { SummaryRequest } from '../core/compression/summarizer.ts';
import type { LabPlan } from '../core/lab/lab-plan.ts';
import {
  estimateProbeCost,
  type ProbeEstimate,
  type ProbeReplayFigures,
} from '../core/probe/estimate-probe-cost.ts';
import {
  PROBE_DEFAULT_FACTS,
  PROBE_MAX_FACTS,
  PROBE_MIN_FACTS,
  type ProbePlanting,
} from '../core/probe/probe-fact.ts';
import { probeQuestion } from '../core/probe/probe-messages.ts';
import { plantProbeFacts } from '../core/probe/plant-probe-facts.ts';
import { scoreProbeReply, type ProbeScore } from '../core/probe/score-probe-reply.ts';
import type { Preset } from '../core/presets/preset.ts';
import { messageText, type Message } from '../core/transcript/message.ts';
import type { ToolSchema } from '../core/transcript/transcript.ts';
import type { CanonicalUsage } from '../core/usage/canonical-usage.ts';
import { costUsdNumber, estimateUsageCost } from '../core/usage/estimate-usage-cost.ts';
import {
  workerCallback,
  type CompactReply,
  type ComputeClient,
  type LabCompressOptions,
} from '../io/compute/compute-client.ts';
import type { ChatResponse } from '../io/llm/chat-client.ts';
import { hermesProviderName } from '../io/llm/provider-settings.ts';
import type { ProviderState } from './provider-state.svelte.ts';

/** What a probe needs of the replay run it probes: its input, plan and compaction request. */
export interface ProbeSource {
  /** The strategy's plan of the run's input (the planner's, as the replay showed it). */
  readonly plan: LabPlan;
  /** The run's own compaction, which the probe repeats with the facts planted: the cost estimate's basis. */
  readonly replay: ProbeReplayFigures;
  /** The run was summarised offline (no key then): the probe would not repeat its summariser. */
  readonly replayOffline: boolean;
  /** The compaction request the run made: same strategy, settings, state and pins. */
  readonly options: LabCompressOptions;
  readonly tools: readonly ToolSchema[];
  readonly preset: Preset;
  /** The run's input messages (the transcript on screen, or the previous run's result). */
  loadMessages(): Promise<readonly Message[]>;
}

export interface ProbeDependencies {
  readonly compute: ComputeClient;
  readonly provider: Pick<
    ProviderState,
    'hasKey' | 'label' | 'config' | 'createChatClient' | 'createSummarizer'
  >;
  readonly source: ProbeSource;
  /** Records one billed call as a probe's usage; resolves to why it was not recorded, or null. */
  recordUsage(call: ProbeCall): Promise<string | null>;
  /** A fresh 32-bit seed for each run (the page's randomness; core has none). */
  seed(): number;
}

/** One provider call the probe made, with what the provider reported it used. */
export interface ProbeCall {
  /** `summary 1`, `summary 2`, …, `question`. */
  readonly name: string;
  readonly model: string;
  readonly usage: CanonicalUsage;
  /** USD at the built-in prices; null when the model has no price. */
  readonly costUsd: number | null;
}

export type ProbeStatus = 'idle' | 'running' | 'done' | 'failed' | 'cancelled';

/** The question call's answer budget: N short lines, with room for a preamble the model adds anyway. */
const QUESTION_MAX_TOKENS = 1024;

/**
 * Probe mode (ROUND2 §3) for one replay run: plant N labelled facts in the region the strategy
 * compacts, compact the probed copy with the real summariser through the same worker operation,
 * ask the main model for every value, and score its recall. Nothing is sent before `run()`;
 * `cancel()` aborts the provider call in flight. Every billed call is recorded as probe usage.
 */
export class ProbeState {
  readonly #deps: ProbeDependencies;
  #controller: AbortController | null = null;
  /** Usage records are written one after another (the first may store the transcript first). */
  #recording: Promise<void> = Promise.resolve();

  count = $state(PROBE_DEFAULT_FACTS);
  status = $state<ProbeStatus>('idle');
  /** What the running probe is doing now. */
  step = $state('');
  error = $state<string | null>(null);
  planting = $state.raw<ProbePlanting | null>(null);
  score = $state.raw<ProbeScore | null>(null);
  /** The model's reply as it came. */
  reply = $state('');
  calls = $state.raw<readonly ProbeCall[]>([]);
  /** Why some usage was not recorded (no session storage…). */
  usageNotice = $state<string | null>(null);

  constructor(deps: ProbeDependencies) {
    this.#deps = deps;
  }

  /** Why the probe cannot run now, in words; null when it can. */
  get unavailable(): string | null {
    const { provider, source } = this.#deps;
    if (!provider.hasKey)
      return `Probe mode asks your model, so it needs a provider key: add one for ${provider.label} in the Provider tab. The offline summariser cannot be probed (it writes no model's memory).`;
    if (source.replayOffline)
      return 'This replay was summarised offline (there was no key when it ran). The probe repeats the replay with the same summariser: replay again now that your key is set, then probe.';
    if (source.plan.summaries.length === 0 && source.plan.fateTotals.dropped.messages === 0)
      return 'This strategy neither summarises nor drops anything of this transcript: there is nowhere to plant a fact.';
    return null;
  }

  get countValid(): boolean {
    return Number.isInteger(this.count) && this.count >= PROBE_MIN_FACTS && this.count <= PROBE_MAX_FACTS;
  }

  /** The model that answers the question. */
  get answerModel(): string {
    return this.#deps.provider.config.model;
  }

  /** The model that writes the summaries. */
  get summaryModel(): string {
    return this.#deps.provider.config.auxiliaryModel || this.#deps.provider.config.model;
  }

  get estimate(): ProbeEstimate | null {
    if (!this.countValid) return null;
    return estimateProbeCost({
      count: this.count,
      replay: this.#deps.source.replay,
      mainModel: this.answerModel,
      summaryModel: this.summaryModel,
      route: this.#costRoute(),
      preset: this.#deps.source.preset,
    });
  }

  /** The billed calls' cost; null when some call's model has no price. */
  get costUsd(): number | null {
    return this.calls.some((call) => call.costUsd === null)
      ? null
      : this.calls.reduce((total, call) => total + (call.costUsd ?? 0), 0);
  }

  get running(): boolean {
    return this.status === 'running';
  }

  cancel(): void {
    this.#controller?.abort(new DOMException('The probe was cancelled.', 'AbortError'));
  }

  /** Plants, compacts, asks and scores. Does nothing while running or when it cannot run. */
  async run(): Promise<void> {
    if (this.running || this.unavailable !== null || !this.countValid) return;
    const controller = new AbortController();
    this.#controller = controller;
    const { signal } = controller;
    this.status = 'running';
    this.error = null;
    this.score = null;
    this.planting = null;
    this.reply = '';
    this.calls = [];
    this.usageNotice = null;
    try {
      const outcome = await this.#probe(signal);
      if (signal.aborted) this.status = 'cancelled';
      else if (outcome !== null) this.#fail(outcome);
      else this.status = 'done';
    } catch (error) {
      if (signal.aborted) this.status = 'cancelled';
      else this.#fail(`The probe failed: ${messageOf(error)}`);
    } finally {
      // Every billed call is recorded, whatever became of the probe.
      await this.#recording;
      this.#controller = null;
      this.step = '';
    }
  }

  /** Resolves to an error message, or null once scored. */
  async #probe(signal: AbortSignal): Promise<string | null> {
    const { compute, provider, source } = this.#deps;
    this.step = 'Reading the transcript…';
    const messages = await source.loadMessages();
    if (signal.aborted) return null;
    const planted = plantProbeFacts({
      messages,
      plan: source.plan,
      count: this.count,
      seed: this.#deps.seed(),
      ...(source.options.pinned ? { pinned: source.options.pinned } : {}),
    });
    if (!planted.ok) return planted.error.message;
    this.planting = planted.value;

    this.step = 'Compacting the probed copy with your summariser…';
    let summaryCalls = 0;
    let summaryFailure: string | null = null;
    const summarizer = await provider.createSummarizer(source.preset, {
      onDelta: () => undefined,
      onNotice: () => undefined,
      onResponse: (response) => {
        summaryCalls += 1;
        this.#record(`summary ${summaryCalls}`, response);
      },
    });
    if (!summarizer) return this.unavailable ?? 'No provider key is set.';
    const summarize = workerCallback(async (request: SummaryRequest) => {
      try {
        return await summarizer.summarize(request, signal);
      } catch (error) {
        // The compaction falls back to a summary of its own when the call fails; a probe of that
        // fallback would measure something else, so the failure ends the probe.
        summaryFailure ??= `The summariser call ${summaryCalls + 1} failed: ${messageOf(error)}`;
        throw error;
      }
    });
    const { currentTokens: _original, ...options } = source.options;
    const compacted = await compute.run<CompactReply>((api) =>
      api.compactConversation(
        {
          ...options,
          messages: [...planted.value.messages],
          tools: [...source.tools],
          pinned: [...planted.value.pinned],
        },
        summarizer.label,
        summarize,
      ),
    );
    if (signal.aborted) return null;
    if (summaryFailure !== null) return summaryFailure;
    if (!compacted.ok) return `The compaction of the probed copy failed: ${compacted.error.message}`;
    if (compacted.value.skipped !== null)
      return `The strategy did not compact the probed copy (${compacted.value.notes[0] ?? compacted.value.skipped}); no question was sent.`;
    const context = compacted.value.messages;

    this.step = `Asking ${provider.config.model}…`;
    const client = await provider.createChatClient(source.preset);
    if (!client) return this.unavailable ?? 'No provider key is set.';
    const labels = planted.value.facts.map((fact) => fact.label);
    const system = context[0]?.role === 'system' ? messageText(context[0]) : null;
    const history = system === null ? context : context.slice(1);
    // A history with tool calls must carry tool definitions (Anthropic refuses it otherwise), so
    // the question sends them, with a tool choice of none: the model answers in text only.
    const tools = toolsForHistory(source.tools, history);
    let response: ChatResponse;
    try {
      response = await client.send(
        {
          messages: [...history, { role: 'user', content: probeQuestion(labels) }],
          ...(system ? { systemPrompt: system } : {}),
          ...(tools.length > 0 ? { tools, toolChoice: 'none' as const } : {}),
          maxTokens: QUESTION_MAX_TOKENS,
          stream: true,
        },
        undefined,
        signal,
      );
    } catch (error) {
      if (signal.aborted) return null;
      return `The question call failed: ${messageOf(error)}`;
    }
    this.#record('question', response);
    this.reply = messageText(response.message);
    this.score = scoreProbeReply(planted.value.facts, this.reply, context);
    return null;
  }

  #record(name: string, response: ChatResponse): void {
    const model = response.model || this.#deps.provider.config.model;
    const estimate = estimateUsageCost(
      model,
      response.usage.canonical,
      this.#costRoute(),
      this.#deps.source.preset,
    );
    const call: ProbeCall = {
      name,
      model,
      usage: response.usage.canonical,
      costUsd: estimate.amountUsd === null ? null : costUsdNumber(estimate),
    };
    this.calls = [...this.calls, call];
    this.#recording = this.#recording.then(async () => {
      try {
        const notice = await this.#deps.recordUsage(call);
        if (notice !== null) this.usageNotice = notice;
      } catch (error) {
        this.usageNotice = `The probe’s usage could not be recorded: ${messageOf(error)}`;
      }
    });
  }

  #costRoute(): { provider: string; baseUrl: string } {
    const config = this.#deps.provider.config;
    return { provider: hermesProviderName(config), baseUrl: config.baseUrl };
  }

  #fail(message: string): void {
    this.status = 'failed';
    this.error = message;
    // Partial results are not a score.
    this.score = null;
  }
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
