import type { AbortSignalLike, Summarizer, SummaryRequest } from '../../core/compression/summarizer.ts';
import { checkSummaryModelWindow } from '../../core/providers/check-summary-model-window.ts';
import { messageText } from '../../core/transcript/message.ts';
import type { ChatClient } from './chat-client.ts';
import { isLlmError, LlmError } from './llm-error.ts';

/** The pure check lives in core; re-exported here, where summary calls are made. */
export { checkSummaryModelWindow };

/** Hermes' `auxiliary.compression.timeout`. */
export const SUMMARY_TIMEOUT_MS = 120_000;
/**
 * The output cap when the compressor sends none (2026-07): Anthropic requires one. Above the
 * largest 2026-04 cap, `int(12,000 × 1.3)` = 15,600.
 */
export const DEFAULT_SUMMARY_MAX_TOKENS = 16_384;
const CHARACTERS_PER_TOKEN = 4;

export interface LlmSummarizerOptions {
  /** The session's provider and main model. */
  client: ChatClient;
  /**
   * Hermes' `auxiliary.compression` model: tried first when the compressor asks for the main
   * model (`request.model === null`); on any failure the main model is tried once.
   */
  auxiliaryModel?: string | null;
  /** A client for an auxiliary model on another provider; defaults to `client`. */
  auxiliaryClient?: ChatClient;
  timeoutMs?: number;
  /** Context windows by model, for the window check (e.g. core's `lookupModel`). */
  contextLengthOf?: (model: string) => number | null | undefined;
  /** Prompt size estimate; characters / 4 by default. */
  estimateTokens?: (text: string) => number;
  /** Notices for the user: the window check, an auxiliary model that failed. */
  onNotice?: (notice: string) => void;
}

/**
 * The compressor's `Summarizer` over a provider client: one user message with the prompt,
 * streamed (long summaries outlast non-streaming limits), under a 120 s deadline. Errors
 * are `LlmError`s, whose `name`, `message` and `status` the compressor classifies.
 */
export function createLlmSummarizer(options: LlmSummarizerOptions): Summarizer {
  const timeoutMs = options.timeoutMs ?? SUMMARY_TIMEOUT_MS;
  const estimateTokens =
    options.estimateTokens ?? ((text: string) => Math.ceil(text.length / CHARACTERS_PER_TOKEN));
  const auxiliaryModel = options.auxiliaryModel?.trim() || null;
  const auxiliaryClient = options.auxiliaryClient ?? options.client;
  const label = `${options.client.provider === 'anthropic' ? 'Anthropic' : 'OpenAI-compatible'} ${auxiliaryModel ?? options.client.model}`;

  async function call(
    client: ChatClient,
    model: string,
    request: SummaryRequest,
    signal?: AbortSignal,
  ): Promise<string> {
    const maxTokens = request.maxTokens ?? DEFAULT_SUMMARY_MAX_TOKENS;
    const warning = checkSummaryModelWindow(
      estimateTokens(request.prompt) + maxTokens,
      options.contextLengthOf?.(model),
    );
    if (warning) options.onNotice?.(warning);
    const deadline = withDeadline(signal, timeoutMs);
    try {
      const response = await client.send(
        { messages: [{ role: 'user', content: request.prompt }], maxTokens, model, stream: true },
        undefined,
        deadline.signal,
      );
      return messageText(response.message);
    } catch (error) {
      if (isLlmError(error) && error.kind === 'timeout' && deadline.timedOut()) {
        throw new LlmError({
          kind: 'timeout',
          provider: error.provider,
          message: `Summary request timed out after ${timeoutMs >= 1000 ? `${Math.round(timeoutMs / 1000)} s` : `${timeoutMs} ms`} (model ${model})`,
          classification: error.classification,
        });
      }
      throw error;
    } finally {
      deadline.dispose();
    }
  }

  return {
    label,
    offline: false,
    async summarize(request, signalLike) {
      const signal = asAbortSignal(signalLike);
      // The compressor chose the model itself (its own fallback logic): no second guessing.
      if (request.model !== null) return call(options.client, request.model, request, signal);
      if (
        auxiliaryModel === null ||
        (auxiliaryModel === options.client.model && auxiliaryClient === options.client)
      ) {
        return call(options.client, options.client.model, request, signal);
      }
      try {
        return await call(auxiliaryClient, auxiliaryModel, request, signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        options.onNotice?.(
          `The summary model ${auxiliaryModel} failed (${error instanceof Error ? error.message : String(error)}); summarising with ${options.client.model} instead.`,
        );
        return call(options.client, options.client.model, request, signal);
      }
    },
  };
}

/** Core hands over its minimal signal type; in the app it is a real `AbortSignal`. */
function asAbortSignal(signal: AbortSignalLike | undefined): AbortSignal | undefined {
  if (signal === undefined || signal instanceof AbortSignal) return signal;
  const controller = new AbortController();
  if (signal.aborted) controller.abort(signal.reason);
  return controller.signal;
}

/**
 * The caller's signal joined with our own deadline. The deadline aborts with a `TimeoutError`
 * DOMException, which the clients report as a timeout rather than a cancel.
 */
function withDeadline(
  signal: AbortSignal | undefined,
  timeoutMs: number,
): { signal: AbortSignal; timedOut(): boolean; dispose(): void } {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = (): void => controller.abort(signal?.reason);
  if (signal?.aborted) controller.abort(signal.reason);
  else signal?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`Timed out after ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}
