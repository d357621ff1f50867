/**
 * Phase 3: one summary of the compacted turns (Hermes `_generate_summary`, hermes-reference
 * §5.6–5.7). Builds the prompt, calls the injected summariser, and turns the answer into a
 * prefixed handoff; on failure it classifies the error, may retry once on the main model, and
 * sets the cooldown. It never throws for a summariser failure (only for cancellation); a null
 * summary tells compress() to abort or fall back.
 */
import { computeSummaryBudget } from '../config/compute-summary-budget.ts';
import type { Preset } from '../presets/preset.ts';
import type { RoughSizeCache } from '../tokens/estimate-messages-tokens-rough.ts';
import type { Message } from '../transcript/message.ts';
import {
  type SummaryFailure,
  classifySummaryFailure,
  failureCooldownSeconds,
} from './classify-summary-failure.ts';
import {
  type CompressorState,
  clearFailureCooldown,
  isCooldownActive,
  recordFailureCooldown,
} from './compressor-state.ts';
import { groundHistoricalTaskSnapshot } from './ground-task-snapshot.ts';
import { withSummaryPrefix } from './markers.ts';
import { pythonStrip } from './python-text.ts';
import { redactCompactionText, redactSensitiveText } from './redact-sensitive-text.ts';
import { serializeForSummary, type SummaryTextCache } from './serialize-for-summary.ts';
import type { AbortSignalLike, Summarizer, SummaryRequest } from './summarizer.ts';
import { buildSummaryPrompt, summaryMaxTokens } from './summary-prompt.ts';
import { stripThinkBlocks } from './strip-think-blocks.ts';

export interface GenerateSummaryInput {
  readonly turns: readonly Message[];
  readonly preset: Preset;
  readonly state: CompressorState;
  readonly focusTopic: string | null;
  readonly memoryContext: string | null;
  /** `YYYY-MM-DD` for the temporal-anchoring rule (2026-07), or null. */
  readonly today: string | null;
  /** `max_summary_tokens` from the derived thresholds. */
  readonly maxSummaryTokens: number;
  /** An auxiliary summary model; null summarises with the main model. */
  readonly summaryModel: string | null;
  /** The session's main model, when known: an auxiliary model equal to it is not "separate". */
  readonly mainModel: string | null;
  readonly sizeCache?: RoughSizeCache;
  /** The turns as already serialised for `preset` (the document's cache). */
  readonly summaryTextCache?: SummaryTextCache;
  /** A reviewed body to use as is instead of calling the summariser. */
  readonly summaryOverride?: string | null;
}

export interface GenerateSummaryDeps {
  readonly summarizer: Summarizer;
  /** Clock in milliseconds (cooldowns). */
  readonly now: () => number;
  readonly signal?: AbortSignalLike;
}

/** One call made to the summariser and how it ended. */
export interface SummaryAttempt {
  readonly request: SummaryRequest;
  /** The error text, or null when the call succeeded. */
  readonly error: string | null;
}

export interface SummaryGeneration {
  /** `<prefix>\n<body>`, or null when the summary could not be produced. */
  readonly summary: string | null;
  /** The body stored as the next previous summary (null on failure). */
  readonly body: string | null;
  readonly state: CompressorState;
  /** The exact prompt (null when a cooldown skipped the call). */
  readonly prompt: string | null;
  readonly budgetTokens: number;
  readonly attempts: readonly SummaryAttempt[];
  /** The classified last failure, if the summary failed. */
  readonly failure: SummaryFailure | null;
  readonly skippedForCooldown: boolean;
  /** The auxiliary model failed and the main model was tried instead (reported to the user). */
  readonly auxModelFailure: { readonly model: string; readonly error: string } | null;
}

/** Thrown summariser errors are classified; a cancelled call is passed through. */
function rethrowIfAborted(signal: AbortSignalLike | undefined, thrown: unknown): void {
  if (signal?.aborted) throw thrown;
}

export async function generateSummary(
  input: GenerateSummaryInput,
  deps: GenerateSummaryDeps,
): Promise<SummaryGeneration> {
  const { preset, turns } = input;
  const switches = preset.summary;
  const grounded = switches.answerHandling === 'grounded';
  const classified = switches.failureHandling === 'classified';
  let state = input.state;
  const budgetTokens = computeSummaryBudget(turns, input.maxSummaryTokens, preset, input.sizeCache);
  const base = { budgetTokens, auxModelFailure: null, attempts: [] as SummaryAttempt[] };
  if (input.summaryOverride != null) {
    // A reviewed summary: no call, no cooldown, no rewriting — the reviewer's text is final.
    const body = pythonStrip(input.summaryOverride);
    return {
      ...base,
      summary: withSummaryPrefix(body, preset),
      body,
      state: { ...clearFailureCooldown(state), previousSummary: body },
      prompt: null,
      failure: null,
      skippedForCooldown: false,
    };
  }
  if (isCooldownActive(state, deps.now())) {
    return {
      ...base,
      summary: null,
      body: null,
      state,
      prompt: null,
      failure: null,
      skippedForCooldown: true,
    };
  }
  // Inputs that bypass serialisation are redacted too: a manual focus string, and a previous
  // summary rehydrated from a handoff written before redaction existed.
  const focusTopic = input.focusTopic && grounded ? redactCompactionText(input.focusTopic) : input.focusTopic;
  if (state.previousSummary && grounded) {
    state = { ...state, previousSummary: redactCompactionText(state.previousSummary) };
  }
  const prompt = buildSummaryPrompt(
    {
      serializedTurns: serializeForSummary(turns, preset, input.summaryTextCache),
      previousSummary: state.previousSummary,
      focusTopic,
      memoryContext: input.memoryContext,
      budgetTokens,
      today: input.today,
    },
    preset,
  );
  const attempts: SummaryAttempt[] = [];
  let auxModelFailure: SummaryGeneration['auxModelFailure'] = null;
  for (;;) {
    const auxiliary =
      input.summaryModel && !state.summaryModelFallenBack && input.summaryModel !== input.mainModel
        ? input.summaryModel
        : null;
    const request: SummaryRequest = {
      prompt,
      maxTokens: summaryMaxTokens(budgetTokens, preset),
      model: auxiliary,
    };
    let content: string;
    try {
      content = await deps.summarizer.summarize(request, deps.signal);
      if (typeof content !== 'string') content = content ? String(content) : '';
      if (grounded && !pythonStrip(content)) {
        // An HTTP 200 with no text would otherwise wipe the compacted turns (#11978).
        throw Object.assign(
          new Error(
            `Context compression LLM returned empty content (provider=auto model=${auxiliary ?? input.mainModel ?? 'main'})`,
          ),
          { name: 'RuntimeError' },
        );
      }
    } catch (thrown) {
      rethrowIfAborted(deps.signal, thrown);
      const failure = classifySummaryFailure(thrown, preset);
      attempts.push({ request, error: failure.message });
      if (failure.noProvider) {
        const error = classified ? 'no auxiliary LLM provider configured' : failure.message;
        state = recordFailureCooldown(state, failureCooldownSeconds(failure, 0, preset), error, deps.now());
        return {
          ...base,
          attempts,
          auxModelFailure,
          summary: null,
          body: null,
          state,
          prompt,
          failure,
          skippedForCooldown: false,
        };
      }
      if (failure.accessOrQuota && classified) state = { ...state, lastSummaryAuthFailure: true };
      // A separate auxiliary model gets one retry on the main model: 2026-07 for any error,
      // 2026-04 only when the model itself is missing.
      if (auxiliary && (classified || failure.modelNotFound)) {
        state = clearFailureCooldown({ ...state, summaryModelFallenBack: true });
        auxModelFailure = { model: auxiliary, error: failure.message };
        continue;
      }
      const consecutiveTimeouts =
        classified && failure.timeout ? state.consecutiveTimeouts + 1 : state.consecutiveTimeouts;
      state = recordFailureCooldown(
        { ...state, consecutiveTimeouts },
        failureCooldownSeconds(failure, consecutiveTimeouts, preset),
        failure.message,
        deps.now(),
      );
      if (failure.streamClosed && classified) state = { ...state, lastSummaryNetworkFailure: true };
      return {
        ...base,
        attempts,
        auxModelFailure,
        summary: null,
        body: null,
        state,
        prompt,
        failure,
        skippedForCooldown: false,
      };
    }
    attempts.push({ request, error: null });
    let body: string;
    if (!grounded) {
      body = redactSensitiveText(pythonStrip(content));
    } else {
      // Reasoning traces would otherwise be stored and fed into every later summary.
      const stripped = pythonStrip(stripThinkBlocks(content));
      body = redactCompactionText(pythonStrip(stripped || content));
      body = groundHistoricalTaskSnapshot(body, turns, preset);
    }
    state = {
      ...clearFailureCooldown(state),
      previousSummary: body,
      lastSummaryAuthFailure: false,
      lastSummaryNetworkFailure: false,
    };
    return {
      ...base,
      attempts,
      auxModelFailure,
      summary: withSummaryPrefix(body, preset),
      body,
      state,
      prompt,
      failure: null,
      skippedForCooldown: false,
    };
  }
}
