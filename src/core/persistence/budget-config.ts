import type { Preset } from '../presets/preset.ts';

/** Per-result threshold before a tool result is persisted (`tools/budget_config.py`). */
export const DEFAULT_RESULT_SIZE_CHARS = 100_000;
/** Aggregate size of one turn's tool results before the largest are persisted. */
export const DEFAULT_TURN_BUDGET_CHARS = 200_000;
/** Characters of a persisted result kept inline as its preview. */
export const DEFAULT_PREVIEW_SIZE_CHARS = 1500;

/** Tools never persisted: persisting `read_file` output would loop persist → read → persist. */
export const PINNED_THRESHOLDS: Readonly<Record<string, number>> = Object.freeze({ read_file: Infinity });

export interface BudgetConfig {
  defaultResultSize: number;
  turnBudget: number;
  previewSize: number;
  /** User overrides per tool name (`tool_overrides`). */
  toolOverrides?: Readonly<Record<string, number>>;
  /** Each tool's own `max_result_size_chars` from its registry entry (Infinity passes through). */
  registryThresholds?: Readonly<Record<string, number>>;
}

export const DEFAULT_BUDGET: BudgetConfig = Object.freeze({
  defaultResultSize: DEFAULT_RESULT_SIZE_CHARS,
  turnBudget: DEFAULT_TURN_BUDGET_CHARS,
  previewSize: DEFAULT_PREVIEW_SIZE_CHARS,
});

const CHARS_PER_TOKEN = 4;
const RESULT_SHARE_OF_WINDOW = 0.15;
const TURN_SHARE_OF_WINDOW = 0.3;
const MINIMUM_RESULT_SIZE_CHARS = 8000;
const MINIMUM_TURN_BUDGET_CHARS = 16_000;

/**
 * Budgets scaled to the model's window (2026-07): 15% of the window's characters per result and
 * 30% per turn, clamped to [8K, 100K] and [16K, 200K]. 2026-04 always used the fixed defaults.
 */
export function budgetForContextWindow(contextLength: number | null, preset: Preset): BudgetConfig {
  if (!preset.persistence.scalesBudgetsToWindow || contextLength === null || !(contextLength > 0))
    return { ...DEFAULT_BUDGET };
  const chars = contextLength * CHARS_PER_TOKEN;
  return {
    defaultResultSize: clamp(
      Math.trunc(chars * RESULT_SHARE_OF_WINDOW),
      MINIMUM_RESULT_SIZE_CHARS,
      DEFAULT_RESULT_SIZE_CHARS,
    ),
    turnBudget: clamp(
      Math.trunc(chars * TURN_SHARE_OF_WINDOW),
      MINIMUM_TURN_BUDGET_CHARS,
      DEFAULT_TURN_BUDGET_CHARS,
    ),
    previewSize: DEFAULT_PREVIEW_SIZE_CHARS,
  };
}

/**
 * The persistence threshold for a tool: pinned, then the user's override, then the tool's own
 * registry limit — capped at the default result size in 2026-07 (uncapped in 2026-04).
 */
export function resolveThreshold(toolName: string, config: BudgetConfig, preset: Preset): number {
  const pinned = PINNED_THRESHOLDS[toolName];
  if (pinned !== undefined) return pinned;
  const override = config.toolOverrides?.[toolName];
  if (override !== undefined) return override;
  const registry = config.registryThresholds?.[toolName];
  if (registry === undefined) return config.defaultResultSize;
  if (registry === Infinity || !preset.persistence.capsRegistryThresholds) return registry;
  return Math.min(registry, config.defaultResultSize);
}

const clamp = (value: number, minimum: number, maximum: number): number =>
  Math.min(maximum, Math.max(minimum, value));
