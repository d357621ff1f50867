/**
 * Where persisted tool results go. Hermes writes `/tmp/hermes-results/<file>` inside the sandbox;
 * the app's IndexedDB adapter queues the write and names its own storage reference in
 * `location`. `write` answers synchronously whether the result may be referenced.
 */
export interface ToolResultStorage {
  /** Directory-like prefix shown to the model, e.g. `/tmp/hermes-results`. */
  readonly location: string;
  write(fileName: string, content: string): boolean;
}

/** Hermes' sandbox storage directory (no `get_temp_dir` on the environment). */
export const HERMES_RESULTS_DIRECTORY = '/tmp/hermes-results';

export const persistedFilePath = (storage: ToolResultStorage, fileName: string): string =>
  `${storage.location.replace(/\/+$/, '')}/${fileName}`;
