import { AppDb } from '#io/db/app-db.ts';
import { SessionRepository, type SessionRepositoryDeps } from '#io/db/session-repository.ts';
import type { Message } from '#core/transcript/message.ts';
import { uniqueDbName } from './open-db-at-version.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';

/** 2027-01-15T08:00:00Z: session ids read `20270115_080000_…`. */
export const FIXTURE_START_MS = Date.UTC(2027, 0, 15, 8, 0, 0);

/**
 * A clock that advances one second per reading and sequential "random" hex, so every session
 * gets a distinct, predictable id and start time.
 */
export function fixtureDeps(overrides: Partial<SessionRepositoryDeps> = {}): SessionRepositoryDeps {
  let tick = 0;
  let draw = 0;
  return {
    now: () => FIXTURE_START_MS + 1000 * tick++,
    randomHex: (bytes) => (draw++).toString(16).padStart(bytes * 2, '0'),
    preset: () => HERMES_2026_04,
    ...overrides,
  };
}

export function openFixtureRepository(
  label: string,
  overrides: Partial<SessionRepositoryDeps> = {},
): { db: AppDb; repository: SessionRepository } {
  const db = new AppDb(uniqueDbName(label));
  return { db, repository: new SessionRepository(db, fixtureDeps(overrides)) };
}

export const user = (content: string): Message => ({ role: 'user', content });
export const assistant = (content: string): Message => ({ role: 'assistant', content });
export const system = (content: string): Message => ({ role: 'system', content });

/** Every row of every table, for before/after comparisons. */
export async function snapshotDatabase(db: AppDb): Promise<Record<string, unknown[]>> {
  const snapshot: Record<string, unknown[]> = {};
  for (const table of db.tables) snapshot[table.name] = await table.toArray();
  return snapshot;
}

/** Unwraps an ok Result or fails the test with the error. */
export function expectOk<T>(result: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!result.ok) throw new Error(`expected ok, got ${JSON.stringify(result.error)}`);
  return result.value;
}
