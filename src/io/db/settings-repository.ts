import type { AppDb } from './app-db.ts';

/** Reads and writes user settings. A stored value of the wrong type falls back to the default. */
export class SettingsRepository {
  readonly #db: AppDb;
  readonly #now: () => number;

  constructor(db: AppDb, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
  }

  async get<T>(key: string, fallback: T, isValid: (value: unknown) => value is T): Promise<T> {
    const row = await this.#db.settings.get(key);
    return row !== undefined && isValid(row.value) ? row.value : fallback;
  }

  async set(key: string, value: unknown): Promise<void> {
    await this.#db.settings.put({ key, value, updatedAt: this.#now() });
  }

  async delete(key: string): Promise<void> {
    await this.#db.settings.delete(key);
  }
}
