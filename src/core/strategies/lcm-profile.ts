/**
 * What the page shows of the lcm strategy — labels, description, host preset and its options —
 * apart from its code (lcm.ts), so the page's bundle carries no compaction code.
 */
import { HOST_PRESET } from './host-preset.ts';
import type { StrategyOption, StrategyProfile } from './strategy.ts';

export const CONTEXT_THRESHOLD: StrategyOption = {
  key: 'lcm.contextThreshold',
  label: 'Sweep at',
  help: 'contextThreshold: the share of the window at which a compaction sweep starts (LCM: 75%).',
  defaultValue: 75,
  min: 10,
  max: 100,
  step: 1,
  unit: 'percent',
};

export const FRESH_TAIL_COUNT: StrategyOption = {
  key: 'lcm.freshTailCount',
  label: 'Fresh tail messages',
  help: 'freshTailCount: the newest messages always kept raw (LCM: 64).',
  defaultValue: 64,
  min: 1,
  max: 1000,
  step: 1,
  unit: 'messages',
};

export const FRESH_TAIL_TOKENS: StrategyOption = {
  key: 'lcm.freshTailMaxTokens',
  label: 'Fresh tail tokens',
  help: 'freshTailMaxTokens: token cap of the fresh tail; the newest message is kept even above it (24,000).',
  defaultValue: 24_000,
  min: 0,
  max: 1_000_000,
  step: 1000,
  unit: 'tokens',
};

export const LEAF_CHUNK_TOKENS: StrategyOption = {
  key: 'lcm.leafChunkTokens',
  label: 'Leaf chunk',
  help: 'leafChunkTokens: the most source tokens one leaf summary stands for (LCM: 20,000).',
  defaultValue: 20_000,
  min: 1000,
  max: 200_000,
  step: 1000,
  unit: 'tokens',
};

export const LEAF_MIN_FANOUT: StrategyOption = {
  key: 'lcm.leafMinFanout',
  label: 'Leaves per condensed summary',
  help: 'leafMinFanout: how many depth-0 summaries in a row the condensed pass turns into one (LCM: 8).',
  defaultValue: 8,
  min: 2,
  max: 64,
  step: 1,
  unit: 'count',
};

export const LEAF_TARGET_TOKENS: StrategyOption = {
  key: 'lcm.leafTargetTokens',
  label: 'Leaf summary size',
  help: 'The size asked of each leaf summary (800–1,200 tokens in the round-2 table; lossless-claw now defaults to 2,400).',
  defaultValue: 1200,
  min: 100,
  max: 8000,
  step: 100,
  unit: 'tokens',
};

export const SWEEP_MAX_DEPTH: StrategyOption = {
  key: 'lcm.sweepMaxDepth',
  label: 'Condense to depth',
  help: 'sweepMaxDepth: 1 runs the condensed pass (depth-0 → depth-1), 0 the leaf pass only.',
  defaultValue: 1,
  min: 0,
  max: 1,
  step: 1,
  unit: 'count',
};

export const LCM_PROFILE: StrategyProfile = {
  name: 'lcm',
  label: 'LCM (lossless)',
  summary:
    'LCM: at 75% of the window, leaf summaries of 20K-token chunks outside a fresh tail of 64 messages / 24K tokens; every message stays stored.',
  description:
    'Modelled on Lossless Context Management as lossless-claw (OpenClaw) and hermes-lcm implement it, as of 2026-10 ' +
    '(after the Voltropy LCM paper). Lossless: every message stays stored — the lab never changes the transcript — ' +
    'and the context the model sees is assembled as [system][summaries…][fresh tail]. A sweep starts at 75% of the ' +
    'window (contextThreshold). The fresh tail is the last 64 messages or 24,000 tokens, whichever keeps less, ' +
    'aligned to whole tool groups (the newest message is kept even above the cap). The history outside it is cut ' +
    'into leaf chunks of up to 20,000 tokens that never split a tool group; each chunk becomes one leaf summary ' +
    '(depth 0) of 800–1,200 tokens, written from a leaf template in our own words that keeps timestamps, ids, paths ' +
    'and decisions. When 8 depth-0 summaries stand in a row, the condensed pass turns them into one depth-1 summary ' +
    'of about 2,000 tokens; deeper condensation under pressure is not modelled. Summaries are user messages in an ' +
    'XML wrapper of our own (id, kind, depth, the messages they stand for) with an "Expand for details about: …" ' +
    "footer; summaries from an earlier compaction stay as they are. Not modelled: LCM's retrieval tools (lcm_grep, " +
    'lcm_describe, lcm_expand) and its budget-constrained assembly, which leaves the oldest summaries out when ' +
    'summaries and tail do not fit.',
  preset: HOST_PRESET,
  usesHermesSettings: false,
  options: [
    CONTEXT_THRESHOLD,
    FRESH_TAIL_COUNT,
    FRESH_TAIL_TOKENS,
    LEAF_CHUNK_TOKENS,
    LEAF_TARGET_TOKENS,
    SWEEP_MAX_DEPTH,
    LEAF_MIN_FANOUT,
  ],
  regionLabels: { head: 'system prompt', middle: 'leaf chunks (summarised)', tail: 'fresh tail' },
};
