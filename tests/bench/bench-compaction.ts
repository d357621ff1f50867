import { compress, type CompressionResult } from '#core/compression/compress.ts';
import { createCompressorState } from '#core/compression/compressor-state.ts';
import type { Summarizer } from '#core/compression/summarizer.ts';
import { DEFAULT_COMPRESSION_CONFIG } from '#core/config/compression-config.ts';
import { createPlanner } from '#core/lab/create-planner.ts';
import type { Preset } from '#core/presets/preset.ts';
import { compactConversation, type ConversationCompaction } from '#core/strategies/compact-conversation.ts';
import type { Strategy } from '#core/strategies/strategy.ts';
import type { Message } from '#core/transcript/message.ts';
import type { Transcript } from '#core/transcript/transcript.ts';

/** A summariser that answers at once, so the figure is the compaction's own work. */
export const STUB_SUMMARIZER: Summarizer = {
  label: 'benchmark stub',
  offline: true,
  summarize: async () => 'The user asked for changes to the API; the agent edited and tested the code.',
};

/**
 * The compaction as the app and the replay CLI run it: the planner plans the transcript first
 * (measuring it and preparing the strategy), then `compactConversation` gets what the planner
 * prepared, its token counts and the trigger's count. Returns the compaction to time; planning
 * is done before it is returned.
 */
export function compactionAfterPlan(
  strategy: Strategy,
  transcript: Transcript,
  summarizer: Summarizer = STUB_SUMMARIZER,
): () => Promise<ConversationCompaction> {
  const { messages } = transcript;
  const tools = transcript.metadata.tools ?? [];
  const state = createCompressorState();
  const planner = createPlanner(messages, { tools });
  const plan = planner.plan(strategy, { config: DEFAULT_COMPRESSION_CONFIG, state, estimator: 'rough' });
  const prepared = planner.prepared(strategy);
  return () =>
    compactConversation(
      strategy,
      {
        reason: 'replay',
        systemPrompt: '',
        messages,
        tools,
        config: DEFAULT_COMPRESSION_CONFIG,
        state,
        prepared,
        tokens: { of: (index) => plan.tokensPerMessage[index] ?? 0, request: plan.totalTokens, exact: false },
        currentTokens: plan.triggerTokens,
        force: true,
        today: null,
      },
      { summarizer, now: () => 0 },
    );
}

/** Hermes' compress() with nothing measured before: no planner, no document, no current count. */
export function compressFromScratch(
  messages: readonly Message[],
  preset: Preset,
  summarizer: Summarizer = STUB_SUMMARIZER,
): Promise<CompressionResult> {
  return compress(
    messages,
    { config: DEFAULT_COMPRESSION_CONFIG, preset, state: createCompressorState(), force: true, today: null },
    { summarizer, now: () => 0 },
  );
}

/** "531 messages, prompt 123,456 chars" or the skip reason. */
export function describeCompaction(size: number, outcome: ConversationCompaction): string {
  if (outcome.skipped) return `skipped: ${outcome.skipped}`;
  const prompt = outcome.compaction.summaries.reduce(
    (sum, summary) => sum + (summary.prompt?.length ?? 0),
    0,
  );
  return `${size} → ${outcome.messages.length} messages, prompt ${prompt.toLocaleString('en-US')} chars`;
}
