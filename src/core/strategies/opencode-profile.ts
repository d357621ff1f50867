/**
 * What the page shows of the opencode strategy — labels, description, host preset and its options —
 * apart from its code (opencode.ts), so the page's bundle carries no compaction code.
 */
import { HOST_PRESET } from './host-preset.ts';
import type { StrategyOption, StrategyProfile } from './strategy.ts';

export const PRESERVE_RECENT: StrategyOption = {
  key: 'opencode.preserveRecentTokens',
  label: 'compaction.preserve_recent_tokens',
  help: 'Budget of the kept turns; 0 = opencode’s default, 25% of the usable window within 2,000–8,000.',
  defaultValue: 0,
  min: 0,
  max: 200_000,
  step: 500,
  unit: 'tokens',
};

export const PRUNE: StrategyOption = {
  key: 'opencode.prune',
  label: 'compaction.prune',
  help: 'Clear old tool output before summarising (1 = on, 0 = off).',
  defaultValue: 1,
  min: 0,
  max: 1,
  step: 1,
  unit: 'count',
};

export const PRUNE_MINIMUM: StrategyOption = {
  key: 'opencode.pruneMinimum',
  label: 'Prune minimum',
  help: 'Prune only when more than this would be freed (PRUNE_MINIMUM: 20,000 tokens).',
  defaultValue: 20_000,
  min: 0,
  max: 500_000,
  step: 1000,
  unit: 'tokens',
};

export const PRUNE_PROTECT: StrategyOption = {
  key: 'opencode.pruneProtect',
  label: 'Tool output protected',
  help: 'The newest tool output kept when pruning (PRUNE_PROTECT: 40,000 tokens).',
  defaultValue: 40_000,
  min: 0,
  max: 500_000,
  step: 1000,
  unit: 'tokens',
};

export const RESERVED: StrategyOption = {
  key: 'opencode.reserved',
  label: 'compaction.reserved',
  help: 'Tokens kept free below the window; 0 = opencode’s default, min(20,000, max output).',
  defaultValue: 0,
  min: 0,
  max: 200_000,
  step: 1000,
  unit: 'tokens',
};

export const TAIL_BEFORE_SUMMARY: StrategyOption = {
  key: 'opencode.tailBeforeSummary',
  label: 'Kept turns before the summary',
  help: '1 = the kept turns come before the summary (as reported in opencode#24963), 0 = after it (opencode since #25851).',
  defaultValue: 1,
  min: 0,
  max: 1,
  step: 1,
  unit: 'count',
};

export const TAIL_TURNS: StrategyOption = {
  key: 'opencode.tailTurns',
  label: 'compaction.tail_turns',
  help: 'Recent user turns kept verbatim beside the summary (opencode: 2; 0 summarises everything).',
  defaultValue: 2,
  min: 0,
  max: 50,
  step: 1,
  unit: 'count',
};

export const OPENCODE_PROFILE: StrategyProfile = {
  name: 'opencode',
  label: 'opencode',
  summary:
    'opencode: at the usable window, prune old tool output; if still over, keep the last 2 turns and summarise the rest.',
  description:
    'Modelled on opencode (anomalyco/opencode, session/compaction.ts and overflow.ts) as of 2026-10. Compaction fires ' +
    'when the context reaches the usable window: the context window minus compaction.reserved, by default min(20,000, ' +
    'max output) with 32,000 as the default max output. It prunes first, with no model call: walking back from the ' +
    'end and skipping the last two user turns, it protects the newest 40,000 tokens of tool output and clears older ' +
    'outputs, but only when more than 20,000 tokens would be freed (skill output is never cleared; an earlier summary ' +
    'stops the walk). opencode summarises only on overflow, so if pruning brings the context under the usable window ' +
    'that is all. Otherwise the recent turns (tail_turns 2, within preserve_recent_tokens: 25% of the usable window, ' +
    '2,000–8,000 tokens) stay verbatim and everything older becomes a Goal / Instructions / Discoveries / Accomplished / ' +
    'Relevant files summary, the answer to a "What did we do so far?" request. By default the kept turns come before ' +
    'the summary, as reported in opencode#24963; an option puts them after it, as opencode does since #25851. A waiting ' +
    'user request is replayed after the summary, otherwise a short continue message follows. Prompts are our own words.',
  preset: HOST_PRESET,
  usesHermesSettings: false,
  options: [RESERVED, PRUNE, PRUNE_PROTECT, PRUNE_MINIMUM, TAIL_TURNS, PRESERVE_RECENT, TAIL_BEFORE_SUMMARY],
  regionLabels: { head: 'system prompt', middle: 'older turns (summarised)', tail: 'recent turns (kept)' },
};
