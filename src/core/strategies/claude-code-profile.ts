/**
 * What the page shows of the claude-code strategy — labels, description, host preset and its options —
 * apart from its code (claude-code.ts), so the page's bundle carries no compaction code.
 */
import { HOST_PRESET } from './host-preset.ts';
import type { StrategyOption, StrategyProfile } from './strategy.ts';

export const AUTOCOMPACT_BUFFER: StrategyOption = {
  key: 'claude-code.autocompactBuffer',
  label: 'Autocompact buffer',
  help: 'Tokens below the effective window at which auto-compact fires (Claude Code: 13,000).',
  defaultValue: 13_000,
  min: 0,
  max: 100_000,
  step: 1000,
  unit: 'tokens',
};

export const FILE_TOKENS: StrategyOption = {
  key: 'claude-code.fileTokens',
  label: 'Tokens per file',
  help: 'A re-attached file larger than this comes back as its path only (Claude Code: 5,000).',
  defaultValue: 5000,
  min: 0,
  max: 100_000,
  step: 500,
  unit: 'tokens',
};

export const MAX_FILES: StrategyOption = {
  key: 'claude-code.maxFiles',
  label: 'Files re-attached',
  help: 'Most recently read or edited files brought back after the summary (Claude Code: 5).',
  defaultValue: 5,
  min: 0,
  max: 20,
  step: 1,
  unit: 'count',
};

export const PERCENT_OVERRIDE: StrategyOption = {
  key: 'claude-code.pctOverride',
  label: 'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE',
  help: 'Fire at this share of the effective window instead; Claude Code takes the lower of the two, so it can only lower the trigger (100 = not set).',
  defaultValue: 100,
  min: 1,
  max: 100,
  step: 1,
  unit: 'percent',
};

export const CLAUDE_CODE_PROFILE: StrategyProfile = {
  name: 'claude-code',
  label: 'Claude Code',
  summary:
    'Claude Code: 13K below the effective window, summarise everything in nine sections and re-attach the 5 latest files.',
  description:
    "Modelled on Anthropic's Claude Code auto-compact as of 2026-10 (anthropics/claude-code#31806, the code.claude.com " +
    'context-window docs and the compact prompt extracted from the CLI). Auto-compact fires at the effective window — ' +
    'the context window minus the output reservation, min(max output tokens, 20,000), with 32,000 as the default max ' +
    'output — less a 13,000-token buffer (about 167K of 200K); CLAUDE_AUTOCOMPACT_PCT_OVERRIDE can only lower it. Only ' +
    'the system prompt is kept: the whole conversation becomes one summary with nine sections (primary request and ' +
    'intent, key technical concepts, files and code, errors and fixes, problem solving, all user messages, pending ' +
    'tasks, current work, optional next step), written after an analysis pass and inserted as a user message behind ' +
    'a continuation note. Then up to 5 of the most recently read or edited files are re-attached, each with its last ' +
    'whole copy when that is at most 5,000 tokens, otherwise by path only. When the conversation and the compaction ' +
    'prompt are over the window, the API answers "prompt is too long" and Claude Code drops the oldest API rounds, ' +
    'enough to cover the gap, and retries: those messages are dropped without being summarised. Prompts are our own words.',
  preset: HOST_PRESET,
  usesHermesSettings: false,
  options: [AUTOCOMPACT_BUFFER, PERCENT_OVERRIDE, MAX_FILES, FILE_TOKENS],
  regionLabels: { head: 'system prompt', middle: 'conversation (summarised)', tail: 'none (files re-read)' },
};
