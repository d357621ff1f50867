import type { Estimator } from '../core/tokens/estimator.ts';
import type { Transcript } from '../core/transcript/transcript.ts';
import type { ComputeClient } from '../io/compute/compute-client.ts';
import type { SettingsRepository } from '../io/db/settings-repository.ts';
import { SettingsState } from './settings-state.svelte.ts';
import { TranscriptState } from './transcript-state.svelte.ts';

export interface AppDependencies {
  compute: ComputeClient;
  settingsRepository: SettingsRepository;
  /** Loads the built-in demo; a function so its data stays out of the main bundle. */
  loadDemoTranscript: () => Promise<Transcript>;
}

/** The root of the reactive state; `main.ts` builds it and the UI reads it from context. */
export class AppState {
  readonly settings: SettingsState;
  readonly transcript: TranscriptState;
  readonly #dependencies: AppDependencies;

  constructor(dependencies: AppDependencies) {
    this.#dependencies = dependencies;
    this.settings = new SettingsState(dependencies.settingsRepository);
    this.transcript = new TranscriptState(dependencies.compute);
  }

  /** First open: settings from IndexedDB, then the demo transcript with its counts. */
  async start(): Promise<void> {
    await this.settings.load();
    const demo = await this.#dependencies.loadDemoTranscript();
    await this.transcript.load(demo, this.settings.estimator);
  }

  async changeEstimator(estimator: Estimator): Promise<void> {
    await this.settings.setEstimator(estimator);
    await this.transcript.count(estimator);
  }
}
