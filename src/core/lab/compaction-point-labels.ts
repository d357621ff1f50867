import type { CompactionPointKind } from '../transcript/transcript.ts';

/** What each kind of foreign compaction point is called on the map and in the list. */
export const COMPACTION_POINT_LABELS: Readonly<Record<CompactionPointKind, string>> = {
  'claude-compact-boundary': 'Claude Code compact boundary',
  'claude-compact-summary': 'Claude Code compact summary',
  'codex-compacted': 'Codex compaction',
  'codex-context-compacted': 'Codex context compacted',
  'hermes-summary': 'Hermes summary',
  'anthropic-compaction': 'Anthropic server-side compaction',
  'openai-compaction': 'OpenAI Responses compaction',
  'openhands-condensation': 'OpenHands condensation',
};

/** The tool that compacted, for the legend and the list's badges (one entry per tool, not per record kind). */
export const COMPACTION_POINT_TOOLS: Readonly<Record<CompactionPointKind, string>> = {
  'claude-compact-boundary': 'Claude Code',
  'claude-compact-summary': 'Claude Code',
  'codex-compacted': 'Codex',
  'codex-context-compacted': 'Codex',
  'hermes-summary': 'Hermes',
  'anthropic-compaction': 'Anthropic',
  'openai-compaction': 'OpenAI Responses',
  'openhands-condensation': 'OpenHands',
};
