/**
 * Every strategy by name: the one place a name becomes a value. Adding a strategy is one file
 * beside this one and one line in `STRATEGIES`.
 */
import { ANTHROPIC_SERVER_STRATEGY } from './anthropic-server.ts';
import { CLAUDE_CODE_STRATEGY } from './claude-code.ts';
import { CLINE_STRATEGY } from './cline.ts';
import { CODEX_CLI_STRATEGY } from './codex-cli.ts';
import { HERMES_2026_04_STRATEGY, HERMES_2026_07_STRATEGY } from './hermes.ts';
import { LCM_STRATEGY } from './lcm.ts';
import { OPENCODE_STRATEGY } from './opencode.ts';
import type { Strategy } from './strategy.ts';
import { DEFAULT_STRATEGY_NAME, type StrategyName } from './strategy-names.ts';

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

export const STRATEGY_NAMES: readonly StrategyName[] = STRATEGIES.map((strategy) => strategy.name);

const BY_NAME: ReadonlyMap<StrategyName, Strategy> = new Map(
  STRATEGIES.map((strategy) => [strategy.name, strategy]),
);

export const isStrategyName = (value: string): boolean => BY_NAME.has(value);

/** The strategy of that name, or undefined for a name no strategy has. */
export const findStrategy = (name: string): Strategy | undefined => BY_NAME.get(name);

/** The strategy of a name already checked (settings fall back to the default). */
export const strategyOrDefault = (name: string): Strategy =>
  BY_NAME.get(name) ?? BY_NAME.get(DEFAULT_STRATEGY_NAME)!;

export const DEFAULT_STRATEGY: Strategy = BY_NAME.get(DEFAULT_STRATEGY_NAME)!;
