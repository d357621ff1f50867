import { DEFAULT_COMPRESSION_CONFIG, type CompressionConfig } from '../core/config/compression-config.ts';
import { isStoredInspectorWidth } from '../core/lab/inspector-width.ts';
import type { Preset } from '../core/presets/preset.ts';
import {
  isCompactionModeChoice,
  resolveCompactionMode,
  type CompactionMode,
  type CompactionModeChoice,
} from '../core/sessions/compaction-mode.ts';
import { isStrategyName, strategyProfileOrDefault } from '../core/strategies/strategy-catalog.ts';
import type { StrategyProfile } from '../core/strategies/strategy.ts';
import { DEFAULT_STRATEGY_NAME, type StrategyName } from '../core/strategies/strategy-names.ts';
import { isEstimator, type Estimator } from '../core/tokens/estimator.ts';
import type { SettingsRepository } from '../io/db/settings-repository.ts';

export const ESTIMATOR_SETTING_KEY = 'estimator';
export const STRATEGY_SETTING_KEY = 'strategy';
/** Round 1 stored the Hermes preset under this key; its values are strategy names too. */
export const LEGACY_PRESET_SETTING_KEY = 'preset';
export const STRATEGY_OPTIONS_SETTING_KEY = 'strategyOptions';
export const COMPRESSION_SETTING_KEY = 'compression';
export const THEME_SETTING_KEY = 'theme';
export const COMPACTION_BEHAVIOUR_SETTING_KEY = 'compaction-behaviour';
export const INSPECTOR_WIDTH_SETTING_KEY = 'inspector-width';

/** How compactions are committed: where they go, and whether automatic ones wait for review. */
export interface CompactionBehaviour {
  /** `preset`: the preset's own mode (2026-07 in place, 2026-04 rotation). */
  mode: CompactionModeChoice;
  /** "Review compactions before they apply": automatic chat compactions stop for review too. */
  review: boolean;
}

export const DEFAULT_COMPACTION_BEHAVIOUR: Readonly<CompactionBehaviour> = Object.freeze({
  mode: 'preset',
  review: false,
});

function isCompactionBehaviour(value: unknown): value is CompactionBehaviour {
  if (!value || typeof value !== 'object') return false;
  const behaviour = value as Record<string, unknown>;
  return isCompactionModeChoice(behaviour.mode) && typeof behaviour.review === 'boolean';
}
const DEFAULT_ESTIMATOR: Estimator = 'o200k_base';

export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];
export const isThemeChoice = (value: unknown): value is ThemeChoice =>
  (THEME_CHOICES as readonly unknown[]).includes(value);

/**
 * The lab's compression settings: what the map is drawn for. Shares are fractions (0.5 = 50%).
 * The window is not here: it belongs to the model (`ProviderState.contextWindow`).
 */
export interface CompressionSettings {
  thresholdPercent: number;
  targetRatio: number;
  protectLastN: number;
  protectFirstN: number;
  focusTopic: string;
}

export const DEFAULT_COMPRESSION_SETTINGS: Readonly<CompressionSettings> = Object.freeze({
  thresholdPercent: DEFAULT_COMPRESSION_CONFIG.thresholdPercent,
  targetRatio: DEFAULT_COMPRESSION_CONFIG.targetRatio,
  protectLastN: DEFAULT_COMPRESSION_CONFIG.protectLastN,
  protectFirstN: DEFAULT_COMPRESSION_CONFIG.protectFirstN,
  focusTopic: '',
});

/** Limits that keep a typed value meaningful (the core clamps the target ratio itself). */
export const MAX_PROTECTED_MESSAGES = 10_000;

const isWholeNumber = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
const isFraction = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 1;

const isStoredStrategyName = (value: unknown): value is StrategyName =>
  typeof value === 'string' && isStrategyName(value);

function isStrategyOptions(value: unknown): value is Record<string, number> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  return Object.values(value).every((option) => typeof option === 'number' && Number.isFinite(option));
}

function isCompressionSettings(value: unknown): value is CompressionSettings {
  if (!value || typeof value !== 'object') return false;
  const settings = value as Record<string, unknown>;
  return (
    isFraction(settings.thresholdPercent) &&
    isFraction(settings.targetRatio) &&
    isWholeNumber(settings.protectLastN, 0, MAX_PROTECTED_MESSAGES) &&
    isWholeNumber(settings.protectFirstN, 0, MAX_PROTECTED_MESSAGES) &&
    typeof settings.focusTopic === 'string'
  );
}

/** Only the fields of today's settings (round 1 also stored the window here). */
function compressionSettingsOf(value: CompressionSettings): CompressionSettings {
  const { thresholdPercent, targetRatio, protectLastN, protectFirstN, focusTopic } = value;
  return { thresholdPercent, targetRatio, protectLastN, protectFirstN, focusTopic };
}

/**
 * User settings, loaded from IndexedDB at start and written back on every change. Each
 * change is announced to `onChange` (the plan redraws) before the write completes: the
 * write is for the next visit, not for this redraw.
 */
export class SettingsState {
  readonly #repository: SettingsRepository;
  #estimator = $state<Estimator>(DEFAULT_ESTIMATOR);
  #strategyName = $state<StrategyName>(DEFAULT_STRATEGY_NAME);
  #strategyOptions = $state.raw<Readonly<Record<string, number>>>({});
  #compression = $state.raw<CompressionSettings>(DEFAULT_COMPRESSION_SETTINGS);
  #theme = $state<ThemeChoice>('system');
  #inspectorWidth = $state<number | null>(null);
  #compactionBehaviour = $state.raw<CompactionBehaviour>(DEFAULT_COMPACTION_BEHAVIOUR);
  #loaded = $state(false);
  #listeners: (() => void)[] = [];

  constructor(repository: SettingsRepository) {
    this.#repository = repository;
  }

  get estimator(): Estimator {
    return this.#estimator;
  }

  /** The chosen strategy's name, as stored and shown in the picker. */
  get strategyName(): StrategyName {
    return this.#strategyName;
  }

  /**
   * The chosen strategy's profile: the value every layer below the settings is given (the worker
   * and the chat loop run the strategy it describes).
   */
  get strategy(): StrategyProfile {
    return strategyProfileOrDefault(this.#strategyName);
  }

  /** The Hermes generation hosting the strategy (session chains, errors, caching, usage). */
  get preset(): Preset {
    return this.strategy.preset;
  }

  /** Settings of non-Hermes strategies by option key; unset keys use the option's default. */
  get strategyOptions(): Readonly<Record<string, number>> {
    return this.#strategyOptions;
  }

  get compression(): CompressionSettings {
    return this.#compression;
  }

  get theme(): ThemeChoice {
    return this.#theme;
  }

  /** The inspector's width as the user dragged it, in pixels; null: the default share of the window. */
  get inspectorWidth(): number | null {
    return this.#inspectorWidth;
  }

  get compactionBehaviour(): CompactionBehaviour {
    return this.#compactionBehaviour;
  }

  /** Where a compaction goes now: the override, else the mode of the strategy's preset. */
  get compactionMode(): CompactionMode {
    return resolveCompactionMode(this.#compactionBehaviour.mode, this.preset);
  }

  get loaded(): boolean {
    return this.#loaded;
  }

  /**
   * Core's config for these settings; the window, summary model and cache TTL come from the
   * provider (`ProviderState.compressionRoute()`), so every consumer uses the model's one window.
   */
  compressionConfig(route: {
    contextLength: number;
    summaryModel: string;
    cacheTtl: CompressionConfig['cacheTtl'];
  }): CompressionConfig {
    const settings = this.#compression;
    return {
      ...DEFAULT_COMPRESSION_CONFIG,
      contextLength: route.contextLength,
      thresholdPercent: settings.thresholdPercent,
      targetRatio: settings.targetRatio,
      protectLastN: settings.protectLastN,
      protectFirstN: settings.protectFirstN,
      strategyOptions: this.#strategyOptions,
      summaryModel: route.summaryModel,
      cacheTtl: route.cacheTtl,
    };
  }

  /** Calls `listener` after every change of a setting that affects the plan. */
  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  async load(): Promise<void> {
    const [
      estimator,
      legacyPreset,
      strategy,
      strategyOptions,
      compression,
      theme,
      behaviour,
      inspectorWidth,
    ] = await Promise.all([
      this.#repository.get(ESTIMATOR_SETTING_KEY, DEFAULT_ESTIMATOR, isEstimator),
      this.#repository.get(LEGACY_PRESET_SETTING_KEY, DEFAULT_STRATEGY_NAME, isStoredStrategyName),
      this.#repository.get(STRATEGY_SETTING_KEY, null, (value): value is StrategyName | null =>
        isStoredStrategyName(value),
      ),
      this.#repository.get(STRATEGY_OPTIONS_SETTING_KEY, {}, isStrategyOptions),
      this.#repository.get(COMPRESSION_SETTING_KEY, DEFAULT_COMPRESSION_SETTINGS, isCompressionSettings),
      this.#repository.get(THEME_SETTING_KEY, 'system', isThemeChoice),
      this.#repository.get(
        COMPACTION_BEHAVIOUR_SETTING_KEY,
        DEFAULT_COMPACTION_BEHAVIOUR,
        isCompactionBehaviour,
      ),
      this.#repository.get(INSPECTOR_WIDTH_SETTING_KEY, null, isStoredInspectorWidth),
    ]);
    this.#estimator = estimator;
    this.#strategyName = strategy ?? legacyPreset;
    this.#strategyOptions = strategyOptions;
    this.#compression = compressionSettingsOf(compression);
    this.#theme = theme;
    this.#compactionBehaviour = behaviour;
    this.#inspectorWidth = inspectorWidth;
    this.#loaded = true;
  }

  async setEstimator(estimator: Estimator): Promise<void> {
    this.#estimator = estimator;
    this.#changed();
    await this.#repository.set(ESTIMATOR_SETTING_KEY, estimator);
  }

  /** Picks a strategy by name (the picker's value); an unknown name is ignored. */
  async setStrategy(name: string): Promise<void> {
    if (!isStrategyName(name)) return;
    this.#strategyName = name;
    this.#changed();
    await this.#repository.set(STRATEGY_SETTING_KEY, name);
  }

  /** Sets one option of a non-Hermes strategy (the form validates the range). */
  async setStrategyOption(key: string, value: number): Promise<void> {
    if (!Number.isFinite(value)) return;
    this.#strategyOptions = { ...this.#strategyOptions, [key]: value };
    this.#changed();
    await this.#repository.set(STRATEGY_OPTIONS_SETTING_KEY, this.#strategyOptions);
  }

  /** Applies a partial change; values that would be invalid are ignored (the form shows why). */
  async updateCompression(patch: Partial<CompressionSettings>): Promise<void> {
    const next = { ...this.#compression, ...patch };
    if (!isCompressionSettings(next)) return;
    this.#compression = next;
    this.#changed();
    await this.#repository.set(COMPRESSION_SETTING_KEY, next);
  }

  async resetCompression(): Promise<void> {
    await this.updateCompression({ ...DEFAULT_COMPRESSION_SETTINGS });
  }

  async updateCompactionBehaviour(patch: Partial<CompactionBehaviour>): Promise<void> {
    const next = { ...this.#compactionBehaviour, ...patch };
    if (!isCompactionBehaviour(next)) return;
    this.#compactionBehaviour = next;
    await this.#repository.set(COMPACTION_BEHAVIOUR_SETTING_KEY, next);
  }

  async setTheme(theme: ThemeChoice): Promise<void> {
    this.#theme = theme;
    await this.#repository.set(THEME_SETTING_KEY, theme);
  }

  /** Keeps the dragged width for the next visit; null goes back to the default. Not a plan change. */
  async setInspectorWidth(width: number | null): Promise<void> {
    const next = width === null ? null : Math.round(width);
    if (!isStoredInspectorWidth(next)) return;
    this.#inspectorWidth = next;
    await this.#repository.set(INSPECTOR_WIDTH_SETTING_KEY, next);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}
