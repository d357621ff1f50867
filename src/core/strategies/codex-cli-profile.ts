/**
 * What the page shows of the codex-cli strategy — labels, description, host preset and its options —
 * apart from its code (codex-cli.ts), so the page's bundle carries no compaction code.
 */
import { HOST_PRESET } from './host-preset.ts';
import type { StrategyOption, StrategyProfile } from './strategy.ts';

export const TRIGGER_PERCENT: StrategyOption = {
  key: 'codex.triggerPercent',
  label: 'Auto-compact at',
  help: 'model_auto_compact_token_limit as a share of the raw window (Codex: 90%).',
  defaultValue: 90,
  min: 10,
  max: 100,
  step: 1,
  unit: 'percent',
};

export const USER_MESSAGE_BUDGET: StrategyOption = {
  key: 'codex.userMessageTokens',
  label: 'User messages kept',
  help: 'Earlier user messages carried into the new history, newest first (Codex: 20,000 tokens).',
  defaultValue: 20_000,
  min: 0,
  max: 200_000,
  step: 1000,
  unit: 'tokens',
};

export const CODEX_CLI_PROFILE: StrategyProfile = {
  name: 'codex-cli',
  label: 'Codex CLI',
  summary:
    'Codex CLI: at 90% of the window, keep only your last 20K tokens of user messages plus a handoff summary.',
  description:
    "Modelled on OpenAI's Codex CLI local compaction (codex-rs core/src/compact.rs) as of 2026-10. Auto-compaction " +
    'fires when the prompt reaches 90% of the raw context window (model_auto_compact_token_limit; the usable window ' +
    'is 95% of the raw one). The new history is the initial context (system prompt), your previous user messages ' +
    'newest first up to 20,000 tokens at about four bytes per token (the oldest one that does not fit is cut to the ' +
    'remainder), and a handoff summary inserted as a user message behind a note that another model did the earlier ' +
    'work. Assistant replies, tool calls and tool results are not kept. When the history and the compaction prompt are ' +
    'over the window, Codex trims the oldest items one by one until the request fits ("Trimmed N older thread item(s) ' +
    'before compacting"): those are dropped without being summarised. The summary follows Codex’s checkpoint ' +
    'structure (goal; progress and decisions; constraints; next steps; critical data), written in our own words.',
  preset: HOST_PRESET,
  usesHermesSettings: false,
  options: [TRIGGER_PERCENT, USER_MESSAGE_BUDGET],
  regionLabels: { head: 'initial context', middle: 'history (user messages kept)', tail: 'recent turns' },
};
