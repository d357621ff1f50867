/**
 * Every strategy by name: the one place a name becomes a value. Adding a strategy is one file
 * beside this one (its profile and its code) and one line here and in `strategy-catalog.ts`.
 */
import { ANTHROPIC_SERVER_STRATEGY } from './anthropic-server.ts';
import { CLAUDE_CODE_STRATEGY } from './claude-code.ts';
import { CLINE_STRATEGY } from './cline.ts';
import { CODEX_CLI_STRATEGY } from './codex-cli.ts';
import { HERMES_2026_04_STRATEGY, HERMES_2026_07_STRATEGY } from './hermes.ts';
import { LCM_STRATEGY } from './lcm.ts';
import { OPENCODE_STRATEGY } from './opencode.ts';
import type { Strategy, StrategyProfile } from './strategy.ts';
import { DEFAULT_STRATEGY_NAME, type StrategyName } from './strategy-names.ts';

export { isStrategyName, STRATEGY_NAMES } from './strategy-catalog.ts';

/** In the order pickers list them: Hermes first, then the other tools. */
export const STRATEGIES: readonly Strategy[] = [
  HERMES_2026_04_STRATEGY,
  HERMES_2026_07_STRATEGY,
  CODEX_CLI_STRATEGY,
  CLAUDE_CODE_STRATEGY,
  OPENCODE_STRATEGY,
  CLINE_STRATEGY,
  ANTHROPIC_SERVER_STRATEGY,
  LCM_STRATEGY,
];

const BY_NAME: ReadonlyMap<StrategyName, Strategy> = new Map(
  STRATEGIES.map((strategy) => [strategy.name, strategy]),
);

/** The strategy of that name, or undefined for a name no strategy has. */
export const findStrategy = (name: string): Strategy | undefined => BY_NAME.get(name);

export const DEFAULT_STRATEGY: Strategy = BY_NAME.get(DEFAULT_STRATEGY_NAME)!;

/** The whole strategy a profile describes (the page holds profiles; the worker and the loop run strategies). */
export function strategyFor(profile: StrategyProfile): Strategy {
  const strategy = BY_NAME.get(profile.name);
  // The catalog and the registry list the same names (held by a test): only a bug lands here.
  if (!strategy) throw new Error(`No strategy is registered for the profile "${profile.name}".`);
  return strategy;
}
