/**
 * Every strategy's profile by name, for the page: pickers, settings and comparison entries hold
 * these values, and the worker, the chat loop and the CLIs turn one into the whole strategy with
 * `strategyFor` (the registry). Profiles carry no compaction code, so the page's bundle does not
 * either. The registry test holds this list and `STRATEGIES` to the same names in the same order.
 */
import { ANTHROPIC_SERVER_PROFILE } from './anthropic-server-profile.ts';
import { CLAUDE_CODE_PROFILE } from './claude-code-profile.ts';
import { CLINE_PROFILE } from './cline-profile.ts';
import { CODEX_CLI_PROFILE } from './codex-cli-profile.ts';
import { HERMES_2026_04_PROFILE, HERMES_2026_07_PROFILE } from './hermes-profile.ts';
import { LCM_PROFILE } from './lcm-profile.ts';
import { OPENCODE_PROFILE } from './opencode-profile.ts';
import type { StrategyProfile } from './strategy.ts';
import { DEFAULT_STRATEGY_NAME, type StrategyName } from './strategy-names.ts';

/** In the order pickers list them: Hermes first, then the other tools. */
export const STRATEGY_PROFILES: readonly StrategyProfile[] = [
  HERMES_2026_04_PROFILE,
  HERMES_2026_07_PROFILE,
  CODEX_CLI_PROFILE,
  CLAUDE_CODE_PROFILE,
  OPENCODE_PROFILE,
  CLINE_PROFILE,
  ANTHROPIC_SERVER_PROFILE,
  LCM_PROFILE,
];

export const STRATEGY_NAMES: readonly StrategyName[] = STRATEGY_PROFILES.map((profile) => profile.name);

const BY_NAME: ReadonlyMap<StrategyName, StrategyProfile> = new Map(
  STRATEGY_PROFILES.map((profile) => [profile.name, profile]),
);

export const isStrategyName = (value: string): boolean => BY_NAME.has(value);

/** The profile of that name, or undefined for a name no strategy has. */
export const findStrategyProfile = (name: string): StrategyProfile | undefined => BY_NAME.get(name);

/** The profile of a name already checked (settings fall back to the default). */
export const strategyProfileOrDefault = (name: string): StrategyProfile =>
  BY_NAME.get(name) ?? BY_NAME.get(DEFAULT_STRATEGY_NAME)!;
