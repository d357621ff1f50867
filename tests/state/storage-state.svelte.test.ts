import { describe, expect, it } from 'vitest';
import type { StoredSessionsMarker } from '#core/sessions/detect-lost-sessions.ts';
import type { BrowserStorage } from '#io/db/browser-storage.ts';
import { StorageState } from '#state/storage-state.svelte.ts';
import { expectOk, openFixtureRepository, user } from '#tests/helpers/session-repository-fixture.ts';

const CHAT = { title: null, source: 'chat', model: null, systemPrompt: null } as const;

function memoryMarker(initial: StoredSessionsMarker | null = null) {
  let value = initial;
  return {
    read: () => value,
    write: (marker: StoredSessionsMarker) => void (value = marker),
    get current() {
      return value;
    },
  };
}

function fakeStorage(persisted: boolean | null, grant: boolean | null): BrowserStorage & { asked: number } {
  const storage = {
    asked: 0,
    estimate: async () => ({ usageBytes: 5_000_000, quotaBytes: 100_000_000 }),
    persisted: async () => persisted,
    persist: async () => {
      storage.asked += 1;
      return grant;
    },
  };
  return storage;
}

const until = async (condition: () => boolean): Promise<void> => {
  for (let attempt = 0; attempt < 200 && !condition(); attempt++)
    await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
};

describe('StorageState', () => {
  it('reports nothing on a first run and remembers what is stored', async () => {
    const { db, repository } = openFixtureRepository('storage-first-run');
    const session = expectOk(await repository.createSession(CHAT, [user('hi')]));
    const marker = memoryMarker();
    const state = new StorageState({ storage: fakeStorage(true, true), sessions: repository, marker });
    await state.start();
    expect(state.lostSessions).toBe(0);
    expect(marker.current).toEqual({ count: 1, newestId: session.id });
    state.stop();
    db.close();
  });

  it('says how many sessions are gone when the store was emptied since the last run', async () => {
    const { db, repository } = openFixtureRepository('storage-evicted');
    const marker = memoryMarker({ count: 7, newestId: '20270101_120000_abcdef' });
    const state = new StorageState({ storage: fakeStorage(false, false), sessions: repository, marker });
    await state.start();
    expect(state.lostSessions).toBe(7);
    expect(marker.current).toEqual({ count: 0, newestId: null });
    state.dismissLostSessions();
    expect(state.lostSessions).toBe(0);
    state.stop();
    db.close();
  });

  it('follows the app’s own changes, so a deletion is never taken for a loss', async () => {
    const { db, repository } = openFixtureRepository('storage-follows');
    const first = expectOk(await repository.createSession(CHAT, [user('one')]));
    const marker = memoryMarker();
    const state = new StorageState({ storage: fakeStorage(true, true), sessions: repository, marker });
    await state.start();
    const second = expectOk(await repository.createSession(CHAT, [user('two')]));
    await until(() => marker.current?.count === 2);
    expect(marker.current?.newestId).toBe(second.id);
    expectOk(await repository.deleteSession(second.id));
    await until(() => marker.current?.count === 1);
    state.stop();
    const next = new StorageState({ storage: fakeStorage(true, true), sessions: repository, marker });
    await next.start();
    expect(next.lostSessions).toBe(0);
    expect(marker.current).toEqual({ count: 1, newestId: first.id });
    next.stop();
    db.close();
  });

  it('asks for persistent storage and says whether it was granted', async () => {
    const { db, repository } = openFixtureRepository('storage-persist');
    const cases: Array<[boolean | null, boolean | null, string, number]> = [
      [true, true, 'persistent', 0],
      [false, true, 'persistent', 1],
      [false, false, 'best-effort', 1],
      [null, null, 'unsupported', 0],
    ];
    for (const [persisted, grant, expected, asked] of cases) {
      const storage = fakeStorage(persisted, grant);
      const state = new StorageState({ storage, sessions: repository, marker: memoryMarker() });
      expect(state.persistence).toBe('checking');
      await state.start();
      expect(state.persistence, `${persisted} / ${grant}`).toBe(expected);
      expect(storage.asked).toBe(asked);
      state.stop();
    }
    db.close();
  });

  it('reads the usage and quota figures', async () => {
    const { db, repository } = openFixtureRepository('storage-estimate');
    const state = new StorageState({
      storage: fakeStorage(true, true),
      sessions: repository,
      marker: memoryMarker(),
    });
    await state.refreshEstimate();
    expect(state.estimate).toEqual({ usageBytes: 5_000_000, quotaBytes: 100_000_000 });
    db.close();
  });
});
