/**
 * The summariser the compressor calls. Core never touches the network: the io layer
 * implements this over a provider client, and `createOfflineSummarizer` implements it locally.
 * A failure is a thrown error; the compressor classifies it by message and status
 * (see `classify-summary-failure.ts`).
 */
import type { SummaryTemplate } from './summary-template.ts';

/** One summary call. `model: null` means the session's main model. */
export interface SummaryRequest {
  readonly prompt: string;
  /** The output cap (2026-04 sent `int(budget × 1.3)`; 2026-07 never sends one). */
  readonly maxTokens: number | null;
  readonly model: string | null;
  /**
   * The section layout the prompt asks for, as data, when a strategy other than Hermes wrote
   * the prompt (the offline summariser fills it; a provider reads the prompt).
   */
  readonly template?: SummaryTemplate;
}

/**
 * The part of a DOM `AbortSignal` core reads (core's realm has no DOM types). A real
 * `AbortSignal` satisfies it, so io can pass its own signal straight through.
 */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
}

export interface Summarizer {
  /** Shown in the UI, e.g. "Anthropic claude-haiku-4-5" or "Offline summariser (no LLM)". */
  readonly label: string;
  /** True when no provider is involved (nothing leaves the browser). */
  readonly offline: boolean;
  summarize(request: SummaryRequest, signal?: AbortSignalLike): Promise<string>;
}

/**
 * The shape of a summariser failure as the compressor reads it. Errors that cross the worker
 * boundary keep only `name` and `message`, so both are enough to classify.
 */
export interface SummarizerErrorLike {
  readonly name?: string;
  readonly message?: string;
  /** HTTP status when the provider answered. */
  readonly status?: number;
  readonly statusCode?: number;
}
