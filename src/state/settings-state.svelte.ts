import { isEstimator, type Estimator } from '../core/tokens/estimator.ts';
import type { SettingsRepository } from '../io/db/settings-repository.ts';

export const ESTIMATOR_SETTING_KEY = 'estimator';
const DEFAULT_ESTIMATOR: Estimator = 'o200k_base';

/** User settings, loaded from IndexedDB at start and written back on every change. */
export class SettingsState {
  readonly #repository: SettingsRepository;
  #estimator = $state<Estimator>(DEFAULT_ESTIMATOR);
  #loaded = $state(false);

  constructor(repository: SettingsRepository) {
    this.#repository = repository;
  }

  get estimator(): Estimator {
    return this.#estimator;
  }

  get loaded(): boolean {
    return this.#loaded;
  }

  async load(): Promise<void> {
    this.#estimator = await this.#repository.get(ESTIMATOR_SETTING_KEY, DEFAULT_ESTIMATOR, isEstimator);
    this.#loaded = true;
  }

  async setEstimator(estimator: Estimator): Promise<void> {
    this.#estimator = estimator;
    await this.#repository.set(ESTIMATOR_SETTING_KEY, estimator);
  }
}
