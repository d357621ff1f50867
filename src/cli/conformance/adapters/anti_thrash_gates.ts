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
import { requireKnownFields, unknownStep } from '../require-known-fields.ts';
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

/** Each op's fields besides `op`. */
const OP_FIELDS: Readonly<Record<GateOp['op'], readonly string[]>> = {
  should_compress: ['tokens'],
  record_completed_compaction: ['used_fallback'],
  update_from_response: ['usage'],
  record_failure_cooldown: ['seconds', 'error'],
  clear_failure_cooldown: [],
  simulate_post_compaction: ['rough_tokens'],
  should_defer_preflight: ['rough_tokens'],
};
const OP_NAMES = Object.keys(OP_FIELDS) as GateOp['op'][];
/**
 * The usage dict the agent hands to `update_from_response` (hermes-reference §9 intake). Hermes
 * reads prompt, completion and total tokens; the other keys have no effect there either.
 */
const USAGE_FIELDS = [
  'prompt_tokens',
  'completion_tokens',
  'total_tokens',
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'reasoning_tokens',
];

function requireKnownOp(op: unknown, index: number): asserts op is GateOp {
  const where = `input.ops[${index}]`;
  const name = (op as { op?: unknown } | null)?.op;
  if (!OP_NAMES.includes(name as GateOp['op'])) unknownStep(where, name, OP_NAMES);
  requireKnownFields(op, ['op', ...OP_FIELDS[name as GateOp['op']]], where);
  if (name === 'update_from_response') {
    requireKnownFields((op as { usage: unknown }).usage, USAGE_FIELDS, `${where}.usage`);
  }
}

function runOps(input: { config: { context_length: number }; ops: GateOp[] }, preset: Preset): unknown[] {
  requireKnownFields(input.config, ['context_length'], 'input.config');
  input.ops.forEach(requireKnownOp);
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
      default:
        return unknownStep('input.ops', (op as { op: unknown }).op, OP_NAMES);
    }
    return { op, result, state: project() };
  });
}

/** The pure helpers the vectors call directly, and the inputs each reads. */
const HELPER_INPUTS: ReadonlyArray<readonly [prefix: string, keys: readonly string[]]> = [
  ['_compression_made_progress', ['orig_len', 'new_len', 'orig_tokens', 'new_tokens']],
  ['_compression_warrants_another_preflight_pass', ['orig_tokens', 'new_tokens', 'threshold_tokens']],
  [
    '_should_run_preflight_estimate',
    ['n_messages', 'msg_chars', 'protect_first_n', 'protect_last_n', 'threshold_tokens'],
  ],
];

function helperInputs(testCase: VectorCase): readonly string[] {
  const name = typeof testCase.function === 'string' ? testCase.function : '';
  const helper = HELPER_INPUTS.find(([prefix]) => name.startsWith(prefix));
  return helper
    ? helper[1]
    : unknownStep(
        'function',
        name,
        HELPER_INPUTS.map(([prefix]) => prefix),
      );
}

function runHelper(testCase: VectorCase, preset: Preset): unknown {
  const input = testCase.input as Record<string, number>;
  const name = typeof testCase.function === 'string' ? testCase.function : '';
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
  return unknownStep(
    'function',
    name,
    HELPER_INPUTS.map(([prefix]) => prefix),
  );
}

/** Op sequences (`config` + `ops`) or a direct helper call named by the case's `function`. */
export const adapter: VectorAdapter = {
  caseKeys: ['function'],
  inputKeys: (testCase) =>
    'ops' in (testCase.input as object) && testCase.function === undefined
      ? ['config', 'ops']
      : helperInputs(testCase),
  run(testCase, preset) {
    const input = testCase.input as Record<string, unknown>;
    if (Array.isArray(input.ops)) {
      return runOps(input as { config: { context_length: number }; ops: GateOp[] }, preset);
    }
    return runHelper(testCase, preset);
  },
};
