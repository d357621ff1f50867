/**
 * What the page shows of the anthropic-server strategy — labels, description, host preset and its options —
 * apart from its code (anthropic-server.ts), so the page's bundle carries no compaction code.
 */
import { HOST_PRESET } from './host-preset.ts';
import type { StrategyOption, StrategyProfile } from './strategy.ts';

/** The API rejects a compaction trigger below this many input tokens. */
export const MIN_COMPACT_TRIGGER = 50_000;

export const CLEAR_ENABLED: StrategyOption = {
  key: 'anthropic-server.clearToolUses',
  label: 'Clear old tool results',
  help: 'Also send the clear_tool_uses_20250919 edit (1 = on, 0 = off); it runs before compaction.',
  defaultValue: 0,
  min: 0,
  max: 1,
  step: 1,
  unit: 'count',
};

export const CLEAR_KEEP: StrategyOption = {
  key: 'anthropic-server.clearKeepToolUses',
  label: 'Tool uses kept',
  help: 'The most recent tool uses whose results clearing leaves alone (API default 3).',
  defaultValue: 3,
  min: 0,
  max: 100,
  step: 1,
  unit: 'count',
};

export const CLEAR_TRIGGER: StrategyOption = {
  key: 'anthropic-server.clearTriggerTokens',
  label: 'Clear tool results at',
  help: 'clear_tool_uses_20250919 trigger in input tokens (API default 100,000).',
  defaultValue: 100_000,
  min: 1000,
  max: 10_000_000,
  step: 1000,
  unit: 'tokens',
};

export const COMPACT_TRIGGER: StrategyOption = {
  key: 'anthropic-server.compactTriggerTokens',
  label: 'Compact at',
  help: 'compact_20260112 trigger in input tokens (API default 150,000; the API accepts no less than 50,000).',
  defaultValue: 150_000,
  min: MIN_COMPACT_TRIGGER,
  max: 10_000_000,
  step: 1000,
  unit: 'tokens',
};

export const ANTHROPIC_SERVER_PROFILE: StrategyProfile = {
  name: 'anthropic-server',
  label: 'Anthropic server-side',
  summary:
    'Anthropic API: compact_20260112 at 150K input tokens replaces everything before it with a summary (stand-in); optional clear_tool_uses first.',
  description:
    "Modelled on Anthropic's server-side context management in the Messages API (context_management.edits) as of " +
    '2026-10. The compact_20260112 edit fires when a request reaches 150,000 input tokens by default (the trigger ' +
    'can be set, but not below 50,000): the server summarises the conversation, returns a compaction block, and ' +
    'everything before that block is dropped from then on. The optional clear_tool_uses_20250919 edit runs first, ' +
    'at 100,000 input tokens by default: it replaces old tool results with a placeholder, keeping the 3 most recent ' +
    'tool uses, and compaction then fires only if the cleared request still reaches its own trigger. The client ' +
    "keeps its full history; the edits change only what the model sees. The server's own summary and its default " +
    'prompt are not available offline; a stand-in — the offline summariser or your provider — writes the summary ' +
    'from a short template in our own words (task, where things stand, exact details, files, next), shown as an ' +
    'assistant message in place of the compaction block. Because the server compacts while answering the latest ' +
    'request, the lab keeps that user request and the last step after it verbatim behind the summary.',
  preset: HOST_PRESET,
  usesHermesSettings: false,
  options: [COMPACT_TRIGGER, CLEAR_ENABLED, CLEAR_TRIGGER, CLEAR_KEEP],
  regionLabels: { head: 'system', middle: 'compacted history', tail: 'latest request' },
};
