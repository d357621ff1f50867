import { DEFAULT_COMPRESSION_CONFIG } from '../../../core/config/compression-config.ts';
import { deriveThresholds } from '../../../core/config/derive-thresholds.ts';
import { planBoundaries, type BoundaryOptions } from '../../../core/compression/plan-boundaries.ts';
import { pruneOldToolResults } from '../../../core/compression/prune-old-tool-results.ts';
import { messageBudgetTokens } from '../../../core/tokens/message-budget-tokens.ts';
import type { Message } from '../../../core/transcript/message.ts';
import { requireKnownFields } from '../require-known-fields.ts';
import type { VectorAdapter } from '../vector-adapter.ts';

interface BoundariesInput {
  messages: Message[];
  config: {
    context_length: number;
    threshold_percent: number;
    protect_first_n: number;
    protect_last_n: number;
    summary_target_ratio: number;
    tail_token_budget?: number;
    compression_count?: number;
    previous_summary?: string | null;
  };
}

/**
 * Builds the compressor state from `config` (thresholds derived as in `__init__`, then the
 * `tail_token_budget` override), computes the boundaries on the raw messages, then follows
 * `compress()`: early exit, pruning with (protect_last_n, tail_token_budget), boundaries again.
 */
const CONFIG_FIELDS = [
  'context_length',
  'threshold_percent',
  'protect_first_n',
  'protect_last_n',
  'summary_target_ratio',
  'tail_token_budget',
  'compression_count',
  'previous_summary',
];

export const adapter: VectorAdapter = {
  inputKeys: () => ['messages', 'config'],
  run(testCase, preset) {
    const { messages, config } = testCase.input as BoundariesInput;
    requireKnownFields(config, CONFIG_FIELDS, 'input.config');
    const derived = deriveThresholds(
      {
        ...DEFAULT_COMPRESSION_CONFIG,
        contextLength: config.context_length,
        thresholdPercent: config.threshold_percent,
        targetRatio: config.summary_target_ratio,
        protectFirstN: config.protect_first_n,
        protectLastN: config.protect_last_n,
      },
      preset,
    );
    const tailTokenBudget = config.tail_token_budget ?? derived.tailTokenBudget;
    const options: BoundaryOptions = {
      protectFirstN: config.protect_first_n,
      protectLastN: config.protect_last_n,
      tailTokenBudget,
      compressionCount: config.compression_count ?? 0,
      hasPreviousSummary: Boolean(config.previous_summary),
    };
    const unpruned = planBoundaries(messages, options, preset);
    let compressPath: Record<string, unknown>;
    if (unpruned.tooFewMessages) {
      compressPath = { skipped: 'too_few_messages', min_messages_exclusive: unpruned.minMessagesExclusive };
    } else {
      const pruned = pruneOldToolResults(
        messages,
        { protectTailCount: config.protect_last_n, protectTailTokens: tailTokenBudget },
        preset,
      );
      const plan = planBoundaries(pruned.messages, options, preset);
      compressPath = { head_end: plan.headEnd, tail_start: plan.tailStart, pruned_count: pruned.prunedCount };
      if (!plan.hasContentToCompress) compressPath.skipped = 'no_content_to_compress';
    }
    return {
      threshold_tokens: derived.thresholdTokens,
      tail_token_budget: tailTokenBudget,
      effective_threshold_percent: derived.effectiveThresholdPercent,
      protect_head_size: unpruned.protectHeadSize,
      compress_start_unpruned: unpruned.headEnd,
      tail_start_unpruned: unpruned.tailStart,
      has_content_to_compress: unpruned.hasContentToCompress,
      // Only the 2026-07 tail walk has this per-message estimate as a separate function.
      ...(preset.estimation.tailWeight === 'envelope'
        ? { budget_tokens_per_message: messages.map((message) => messageBudgetTokens(message, preset)) }
        : {}),
      compress_path: compressPath,
    };
  },
};
