/**
 * One column of a comparison: a strategy with the settings it differs in from the comparison's
 * base settings (the same strategy at a 50% and a 75% threshold is two entries).
 */
import type { CompressionConfig } from '../config/compression-config.ts';
import { formatCount } from '../shared/format-count.ts';
import type { Strategy } from '../strategies/strategy.ts';
import type { StrategyName } from '../strategies/strategy-names.ts';

/** Hermes' settings an entry may change (the window is the comparison's, shared by all entries). */
export type CompareConfigOverrides = Partial<
  Pick<CompressionConfig, 'thresholdPercent' | 'targetRatio' | 'protectFirstN' | 'protectLastN' | 'maxTokens'>
>;

export interface CompareEntry {
  readonly strategy: StrategyName;
  /** Shown in the table and the exports; `entryLabel` derives one when absent. */
  readonly label?: string;
  readonly config?: CompareConfigOverrides;
  /** Strategy options (`Strategy.options` keys) set for this entry only. */
  readonly strategyOptions?: Readonly<Record<string, number>>;
}

/** The entry's settings: the base with its overrides on top. */
export function entryConfig(base: CompressionConfig, entry: CompareEntry): CompressionConfig {
  const overrides = Object.fromEntries(
    Object.entries(entry.config ?? {}).filter(([, value]) => value !== undefined),
  ) as CompareConfigOverrides;
  return {
    ...base,
    ...overrides,
    strategyOptions: { ...base.strategyOptions, ...entry.strategyOptions },
  };
}

const CONFIG_WORDS: Record<keyof CompareConfigOverrides, (value: number | null) => string> = {
  thresholdPercent: (value) => `threshold ${percent(value)}`,
  targetRatio: (value) => `target ratio ${percent(value)}`,
  protectFirstN: (value) => `protect_first_n ${value ?? ''}`,
  protectLastN: (value) => `protect_last_n ${value ?? ''}`,
  maxTokens: (value) => `max_tokens ${value === null ? 'default' : formatCount(value)}`,
};

const percent = (value: number | null): string =>
  value === null ? '' : `${Number((value * 100).toFixed(1))}%`;

/** The overrides in words, e.g. `["threshold 75%", "Auto-compact at 80%"]`; empty for defaults. */
export function describeOverrides(strategy: Strategy, entry: CompareEntry): string[] {
  const words: string[] = [];
  for (const [key, value] of Object.entries(entry.config ?? {})) {
    if (value === undefined) continue;
    words.push(CONFIG_WORDS[key as keyof CompareConfigOverrides](value));
  }
  for (const option of strategy.options) {
    const value = entry.strategyOptions?.[option.key];
    if (value === undefined) continue;
    const unit = option.unit === 'percent' ? '%' : option.unit === 'tokens' ? ' tokens' : '';
    words.push(`${option.label} ${formatCount(value)}${unit}`);
  }
  return words;
}

/** The entry's name in tables: its own label, else the strategy's with the overrides. */
export function entryLabel(strategy: Strategy, entry: CompareEntry): string {
  if (entry.label?.trim()) return entry.label.trim();
  const overrides = describeOverrides(strategy, entry);
  return overrides.length > 0 ? `${strategy.label} (${overrides.join(', ')})` : strategy.label;
}
