import { DEFAULT_COMPRESSION_CONFIG } from '../../../core/config/compression-config.ts';
import { deriveThresholds } from '../../../core/config/derive-thresholds.ts';
import {
  markCompactionBoundary,
  recordCompletedCompaction,
  shouldCompress,
  shouldDeferPreflightToRealUsage,
  updateFromResponse,
} from '../../../core/compression/compression-gates.ts';
import {
  type CompressorState,
  clearFailureCooldown,
  createCompressorState,
  isCooldownActive,
  recordFailureCooldown,
} from '../../../core/compression/compressor-state.ts';
import {
  compressionMadeProgress,
  shouldRunPreflightEstimate,
  warrantsAnotherPreflightPass,
} from '../../../core/compression/preflight-checks.ts';
import type { Preset } from '../../../core/presets/preset.ts';
import { estimateMessagesTokensRough } from '../../../core/tokens/estimate-messages-tokens-rough.ts';
import type { Message } from '../../../core/transcript/message.ts';
import type { VectorAdapter, VectorCase } from '../vector-adapter.ts';

/** The vectors never let time pass; any fixed instant works. */
const NOW_MS = 1_000_000;

type GateOp =
  | { op: 'should_compress'; tokens?: number }
  | { op: 'record_completed_compaction'; used_fallback: boolean }
  | { op: 'update_from_response'; usage: Record<string, number> }
  | { op: 'record_failure_cooldown'; seconds: number; error: string }
  | { op: 'clear_failure_cooldown' }
  | { op: 'simulate_post_compaction'; rough_tokens: number }
  | { op: 'should_defer_preflight'; rough_tokens: number };

function runOps(input: { config: { context_length: number }; ops: GateOp[] }, preset: Preset): unknown[] {
  const config = { ...DEFAULT_COMPRESSION_CONFIG, contextLength: input.config.context_length };
  const { thresholdTokens } = deriveThresholds(config, preset);
  const context = { thresholdTokens, preset, nowMs: NOW_MS };
  let state: CompressorState = createCompressorState();
  const project = (): Record<string, unknown> => ({
    threshold_tokens: thresholdTokens,
    ineffective_compression_count: state.ineffectiveCount,
    fallback_compression_streak: state.fallbackStreak,
    last_prompt_tokens: state.lastPromptTokens,
    last_real_prompt_tokens: state.lastRealPromptTokens,
    last_rough_tokens_when_real_prompt_fit: state.lastRoughTokensWhenRealPromptFit,
    awaiting_real_usage_after_compression: state.awaitingRealUsageAfterCompression,
    cooldown_active: isCooldownActive(state, NOW_MS),
  });
  return input.ops.map((op) => {
    let result: unknown = null;
    switch (op.op) {
      case 'should_compress':
        result = shouldCompress(state, context, op.tokens).compress;
        break;
      case 'record_completed_compaction':
        state = recordCompletedCompaction(state, op.used_fallback);
        break;
      case 'update_from_response':
        state = updateFromResponse(state, op.usage, thresholdTokens, preset);
        break;
      case 'record_failure_cooldown':
        state = recordFailureCooldown(state, op.seconds, op.error, NOW_MS);
        break;
      case 'clear_failure_cooldown':
        state = clearFailureCooldown(state);
        break;
      case 'simulate_post_compaction':
        state = markCompactionBoundary(state, op.rough_tokens, preset);
        break;
      case 'should_defer_preflight': {
        const verdict = shouldDeferPreflightToRealUsage(state, op.rough_tokens, thresholdTokens, preset);
        state = verdict.state;
        result = verdict.defer;
        break;
      }
    }
    return { op, result, state: project() };
  });
}

function runHelper(testCase: VectorCase, preset: Preset): unknown {
  const input = testCase.input as Record<string, number>;
  const name = String(testCase.function ?? '');
  if (name === '_compression_made_progress') {
    return compressionMadeProgress(
      { messageCount: input.orig_len!, tokens: input.orig_tokens! },
      { messageCount: input.new_len!, tokens: input.new_tokens! },
    );
  }
  if (name === '_compression_warrants_another_preflight_pass') {
    return warrantsAnotherPreflightPass(input.orig_tokens!, input.new_tokens!, input.threshold_tokens!);
  }
  if (name.startsWith('_should_run_preflight_estimate')) {
    const messages: Message[] = Array.from({ length: input.n_messages! }, () => ({
      role: 'user',
      content: 'x'.repeat(input.msg_chars!),
    }));
    return shouldRunPreflightEstimate({
      messageCount: messages.length,
      roughMessageTokens: () => estimateMessagesTokensRough(messages, preset),
      protectFirstN: input.protect_first_n!,
      protectLastN: input.protect_last_n!,
      thresholdTokens: input.threshold_tokens!,
    });
  }
  throw new Error(`unknown helper ${name}`);
}

export const adapter: VectorAdapter = {
  run(testCase, preset) {
    const input = testCase.input as Record<string, unknown>;
    if (Array.isArray(input.ops)) {
      return runOps(input as { config: { context_length: number }; ops: GateOp[] }, preset);
    }
    return runHelper(testCase, preset);
  },
};
