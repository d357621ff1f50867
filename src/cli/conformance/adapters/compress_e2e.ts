import { compress } from '../../../core/compression/compress.ts';
import { createCompressorState } from '../../../core/compression/compressor-state.ts';
import type { Summarizer } from '../../../core/compression/summarizer.ts';
import { DEFAULT_COMPRESSION_CONFIG } from '../../../core/config/compression-config.ts';
import type { Message } from '../../../core/transcript/message.ts';
import { requireKnownFields } from '../require-known-fields.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

interface E2eInput {
  messages: Message[];
  config: {
    context_length: number;
    threshold_percent: number;
    protect_first_n: number;
    protect_last_n: number;
    summary_target_ratio: number;
    tail_token_budget?: number;
    compression_count?: number;
  };
  stub_summary: string;
  summary_error: string | null;
  focus_topic: string | null;
}

/** Per the file's notes: Hermes was run with `current_tokens=100000` and the clock on 2026-01-15. */
const CURRENT_TOKENS = 100_000;
const TODAY = '2026-01-15';

/** The stub Hermes' harness put in place of `call_llm`: the stub text, or a RuntimeError. */
function stubSummarizer(input: E2eInput): Summarizer {
  return {
    label: 'vector stub',
    offline: true,
    summarize: () =>
      input.summary_error === null
        ? Promise.resolve(input.stub_summary)
        : Promise.reject(Object.assign(new Error(input.summary_error), { name: 'RuntimeError' })),
  };
}

const CONFIG_FIELDS = [
  'context_length',
  'threshold_percent',
  'protect_first_n',
  'protect_last_n',
  'summary_target_ratio',
  'tail_token_budget',
  'compression_count',
];

export const adapter: VectorAdapter = {
  inputKeys: () => ['messages', 'config', 'stub_summary', 'summary_error', 'focus_topic'],
  async run(testCase, preset) {
    const input = testCase.input as E2eInput;
    requireKnownFields(input.config, CONFIG_FIELDS, 'input.config');
    const result = await compress(
      input.messages,
      {
        config: {
          ...DEFAULT_COMPRESSION_CONFIG,
          contextLength: input.config.context_length,
          thresholdPercent: input.config.threshold_percent,
          protectFirstN: input.config.protect_first_n,
          protectLastN: input.config.protect_last_n,
          targetRatio: input.config.summary_target_ratio,
        },
        preset,
        state: createCompressorState({ compressionCount: input.config.compression_count ?? 0 }),
        focusTopic: input.focus_topic ?? undefined,
        currentTokens: CURRENT_TOKENS,
        tailTokenBudgetOverride: input.config.tail_token_budget,
        // Only the checkpoint prompt anchors the summary in time.
        today: preset.summary.prompt === 'checkpoint' ? TODAY : null,
      },
      { summarizer: stubSummarizer(input), now: () => 0 },
    );
    const call = result.summarizerCall;
    // A generation with the static-note fallback had no fallback, drop-count or abort bookkeeping.
    const legacy = preset.summary.fallback === 'static-note';
    return {
      messages: result.messages,
      compression_count: result.state.compressionCount,
      previous_summary: result.state.previousSummary,
      fallback_used: legacy ? null : result.usedFallback,
      dropped_count: legacy ? null : result.droppedCount,
      aborted: legacy ? null : result.aborted,
      summarizer_call: call && {
        task: call.task,
        ...(call.maxTokens !== null ? { max_tokens: call.maxTokens } : {}),
        ...(call.model !== null ? { model: call.model } : {}),
      },
      summarizer_prompt: result.prompt,
    };
  },
};
