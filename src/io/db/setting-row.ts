/** One user setting. Values are JSON-compatible; keys are listed in `settings-repository.ts`. */
export interface SettingRow {
  key: string;
  value: unknown;
  updatedAt: number;
}
