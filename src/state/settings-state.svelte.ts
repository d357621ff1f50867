import { DEFAULT_COMPRESSION_CONFIG, type CompressionConfig } from '../core/config/compression-config.ts';
import { getPreset, type Preset } from '../core/presets/preset.ts';
import { DEFAULT_PRESET, isPresetName, type PresetName } from '../core/presets/preset-name.ts';
import { isEstimator, type Estimator } from '../core/tokens/estimator.ts';
import type { SettingsRepository } from '../io/db/settings-repository.ts';

export const ESTIMATOR_SETTING_KEY = 'estimator';
export const PRESET_SETTING_KEY = 'preset';
export const COMPRESSION_SETTING_KEY = 'compression';
export const THEME_SETTING_KEY = 'theme';
const DEFAULT_ESTIMATOR: Estimator = 'o200k_base';

export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];
export const isThemeChoice = (value: unknown): value is ThemeChoice =>
  (THEME_CHOICES as readonly unknown[]).includes(value);

/** The lab's compression settings: what the map is drawn for. Shares are fractions (0.5 = 50%). */
export interface CompressionSettings {
  contextLength: number;
  thresholdPercent: number;
  targetRatio: number;
  protectLastN: number;
  protectFirstN: number;
  focusTopic: string;
  /** The catalog model whose window filled `contextLength`; '' when typed by hand. */
  contextModel: string;
}

export const DEFAULT_COMPRESSION_SETTINGS: Readonly<CompressionSettings> = Object.freeze({
  contextLength: DEFAULT_COMPRESSION_CONFIG.contextLength,
  thresholdPercent: DEFAULT_COMPRESSION_CONFIG.thresholdPercent,
  targetRatio: DEFAULT_COMPRESSION_CONFIG.targetRatio,
  protectLastN: DEFAULT_COMPRESSION_CONFIG.protectLastN,
  protectFirstN: DEFAULT_COMPRESSION_CONFIG.protectFirstN,
  focusTopic: '',
  contextModel: '',
});

/** Limits that keep a typed value meaningful (the core clamps the target ratio itself). */
export const MAX_CONTEXT_LENGTH = 10_000_000;
export const MAX_PROTECTED_MESSAGES = 10_000;

const isWholeNumber = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
const isFraction = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 && value <= 1;

function isCompressionSettings(value: unknown): value is CompressionSettings {
  if (!value || typeof value !== 'object') return false;
  const settings = value as Record<string, unknown>;
  return (
    isWholeNumber(settings.contextLength, 1, MAX_CONTEXT_LENGTH) &&
    isFraction(settings.thresholdPercent) &&
    isFraction(settings.targetRatio) &&
    isWholeNumber(settings.protectLastN, 0, MAX_PROTECTED_MESSAGES) &&
    isWholeNumber(settings.protectFirstN, 0, MAX_PROTECTED_MESSAGES) &&
    typeof settings.focusTopic === 'string' &&
    typeof settings.contextModel === 'string'
  );
}

/**
 * User settings, loaded from IndexedDB at start and written back on every change. Each
 * change is announced to `onChange` (the plan redraws) before the write completes: the
 * write is for the next visit, not for this redraw.
 */
export class SettingsState {
  readonly #repository: SettingsRepository;
  #estimator = $state<Estimator>(DEFAULT_ESTIMATOR);
  #preset = $state<PresetName>(DEFAULT_PRESET);
  #compression = $state.raw<CompressionSettings>(DEFAULT_COMPRESSION_SETTINGS);
  #theme = $state<ThemeChoice>('system');
  #loaded = $state(false);
  #listeners: (() => void)[] = [];

  constructor(repository: SettingsRepository) {
    this.#repository = repository;
  }

  get estimator(): Estimator {
    return this.#estimator;
  }

  /** The chosen preset's name, as stored and shown in the picker. */
  get presetName(): PresetName {
    return this.#preset;
  }

  /** The chosen preset: what every layer below the settings works with. */
  get preset(): Preset {
    return getPreset(this.#preset);
  }

  get compression(): CompressionSettings {
    return this.#compression;
  }

  get theme(): ThemeChoice {
    return this.#theme;
  }

  get loaded(): boolean {
    return this.#loaded;
  }

  /** Core's config for these settings; the summary model and cache TTL come from the provider. */
  compressionConfig(provider?: {
    summaryModel: string;
    cacheTtl: CompressionConfig['cacheTtl'];
  }): CompressionConfig {
    const settings = this.#compression;
    return {
      ...DEFAULT_COMPRESSION_CONFIG,
      contextLength: settings.contextLength,
      thresholdPercent: settings.thresholdPercent,
      targetRatio: settings.targetRatio,
      protectLastN: settings.protectLastN,
      protectFirstN: settings.protectFirstN,
      ...(provider ? { summaryModel: provider.summaryModel, cacheTtl: provider.cacheTtl } : {}),
    };
  }

  /** Calls `listener` after every change of a setting that affects the plan. */
  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }

  async load(): Promise<void> {
    const [estimator, preset, compression, theme] = await Promise.all([
      this.#repository.get(ESTIMATOR_SETTING_KEY, DEFAULT_ESTIMATOR, isEstimator),
      this.#repository.get(
        PRESET_SETTING_KEY,
        DEFAULT_PRESET,
        (value): value is PresetName => typeof value === 'string' && isPresetName(value),
      ),
      this.#repository.get(COMPRESSION_SETTING_KEY, DEFAULT_COMPRESSION_SETTINGS, isCompressionSettings),
      this.#repository.get(THEME_SETTING_KEY, 'system', isThemeChoice),
    ]);
    this.#estimator = estimator;
    this.#preset = preset;
    this.#compression = compression;
    this.#theme = theme;
    this.#loaded = true;
  }

  async setEstimator(estimator: Estimator): Promise<void> {
    this.#estimator = estimator;
    this.#changed();
    await this.#repository.set(ESTIMATOR_SETTING_KEY, estimator);
  }

  async setPreset(preset: PresetName): Promise<void> {
    this.#preset = preset;
    this.#changed();
    await this.#repository.set(PRESET_SETTING_KEY, preset);
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

  async setTheme(theme: ThemeChoice): Promise<void> {
    this.#theme = theme;
    await this.#repository.set(THEME_SETTING_KEY, theme);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}
