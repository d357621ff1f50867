/**
 * One summary for a strategy other than Hermes: its own instructions and section template,
 * the turns serialised and redacted as Hermes does before anything reaches a summariser, and
 * a deterministic digest in the same layout when the summariser fails (labelled as such).
 * Hermes' own summary path (budget formula, iterative update, cooldowns) is `generate-summary.ts`.
 */
import { summarizeOffline } from '../compression/offline-summarizer.ts';
import { pythonStrip } from '../compression/python-text.ts';
import { redactCompactionText } from '../compression/redact-sensitive-text.ts';
import { serializeForSummary, type SummaryTextCache } from '../compression/serialize-for-summary.ts';
import { stripThinkBlocks } from '../compression/strip-think-blocks.ts';
import { buildTemplatePrompt, type SummaryTemplate } from '../compression/summary-template.ts';
import type { Preset } from '../presets/preset.ts';
import type { Message } from '../transcript/message.ts';
import type { CompactDeps } from './strategy.ts';

export interface WriteSummaryInput {
  readonly turns: readonly Message[];
  /** The host preset: how turns are serialised for the summariser. */
  readonly preset: Preset;
  readonly instructions: string;
  readonly template: SummaryTemplate;
  readonly budgetTokens: number;
  readonly previousSummary?: string | null;
  readonly focusTopic?: string | null;
  readonly closing?: string;
  /** A reviewed body: used as written, no call. */
  readonly override?: string;
  /** The summary model; null uses the main model. */
  readonly model: string | null;
  /** An output cap to send, or null for none. */
  readonly maxTokens?: number | null;
  /** The turns as already serialised for `preset` (the compaction's shared cache). */
  readonly textCache?: SummaryTextCache | undefined;
}

export interface WrittenSummary {
  readonly body: string;
  readonly prompt: string;
  /** The summariser failed and the deterministic digest stands in. */
  readonly fallback: boolean;
  readonly error: string | null;
  readonly calls: number;
}

export async function writeSummary(input: WriteSummaryInput, deps: CompactDeps): Promise<WrittenSummary> {
  const prompt = buildTemplatePrompt({
    instructions: input.instructions,
    serializedTurns: serializeForSummary(input.turns, input.preset, input.textCache),
    template: input.template,
    budgetTokens: input.budgetTokens,
    previousSummary: input.previousSummary ?? null,
    focusTopic: input.focusTopic ? redactCompactionText(input.focusTopic) : null,
    ...(input.closing ? { closing: input.closing } : {}),
  });
  if (input.override !== undefined) {
    return { body: pythonStrip(input.override), prompt, fallback: false, error: null, calls: 0 };
  }
  try {
    const answer = await deps.summarizer.summarize(
      { prompt, maxTokens: input.maxTokens ?? null, model: input.model, template: input.template },
      deps.signal,
    );
    const text = typeof answer === 'string' ? answer : String(answer ?? '');
    const body = redactCompactionText(pythonStrip(stripThinkBlocks(text)));
    if (body === '') throw new Error('The summariser returned no text');
    return { body, prompt, fallback: false, error: null, calls: 1 };
  } catch (thrown) {
    // A cancelled compaction stops here; any other failure leaves a labelled digest instead
    // of dropping the turns with nothing in their place.
    if (deps.signal?.aborted) throw thrown;
    const error = thrown instanceof Error ? thrown.message : String(thrown);
    const digest = summarizeOffline(prompt, input.template);
    return {
      body: `[The summariser failed (${error}); this deterministic digest of the compacted turns stands in.]\n\n${digest}`,
      prompt,
      fallback: true,
      error,
      calls: 1,
    };
  }
}
