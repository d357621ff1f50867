import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  COMPACTION_IN_PROGRESS_MESSAGE,
  defaultLockManager,
  withCompactionLock,
  type LockManagerLike,
} from '#io/db/compaction-lock.ts';
import { InMemoryLockManager } from '#io/db/in-memory-lock-manager.ts';

const tick = (ms = 5): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('withCompactionLock', () => {
  it('runs the compaction and returns its value when the lock is free', async () => {
    const locks = new InMemoryLockManager();
    expect(await withCompactionLock('s1', async () => 42, locks)).toEqual({ ok: true, value: 42 });
    expect(locks.isHeld('context-lab:compact:s1')).toBe(false);
  });

  it('refuses a second compaction of the same session while the first runs', async () => {
    const locks = new InMemoryLockManager();
    let finish!: () => void;
    const first = withCompactionLock(
      's1',
      () => new Promise<string>((resolve) => (finish = () => resolve('first'))),
      locks,
    );
    await tick();
    expect(await withCompactionLock('s1', async () => 'second', locks)).toEqual({
      ok: false,
      error: { type: 'CompactionInProgress', sessionId: 's1', message: COMPACTION_IN_PROGRESS_MESSAGE },
    });
    expect(await withCompactionLock('s2', async () => 'other session', locks)).toEqual({
      ok: true,
      value: 'other session',
    });
    finish();
    expect(await first).toEqual({ ok: true, value: 'first' });
    expect(await withCompactionLock('s1', async () => 'after', locks)).toEqual({ ok: true, value: 'after' });
  });

  it('releases the lock when the compaction throws', async () => {
    const locks = new InMemoryLockManager();
    await expect(
      withCompactionLock('s1', async () => Promise.reject(new Error('boom')), locks),
    ).rejects.toThrow('boom');
    expect(await withCompactionLock('s1', async () => 'again', locks)).toEqual({ ok: true, value: 'again' });
  });

  it('asks the lock manager for the session lock without waiting', async () => {
    const requests: Array<[string, { ifAvailable?: boolean }]> = [];
    const locks: LockManagerLike = {
      request: async (name, options, callback) => {
        requests.push([name, options]);
        return callback(null);
      },
    };
    expect((await withCompactionLock('abc', async () => 1, locks)).ok).toBe(false);
    expect(requests).toEqual([['context-lab:compact:abc', { ifAvailable: true }]]);
  });
});

describe('InMemoryLockManager', () => {
  it('queues requests that may wait, in order', async () => {
    const locks = new InMemoryLockManager();
    const order: string[] = [];
    const hold = (label: string) =>
      locks.request('name', {}, async () => {
        order.push(`start ${label}`);
        await tick();
        order.push(`end ${label}`);
      });
    await Promise.all([hold('a'), hold('b'), hold('c')]);
    expect(order).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(locks.isHeld('name')).toBe(false);
  });
});

describe('defaultLockManager', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('uses the Web Locks API when the browser has it', () => {
    const locks: LockManagerLike = { request: async (_name, _options, callback) => callback(null) };
    vi.stubGlobal('navigator', { locks });
    expect(defaultLockManager()).toBe(locks);
  });

  it('falls back to one in-memory manager without it', () => {
    vi.stubGlobal('navigator', undefined);
    expect(defaultLockManager()).toBeInstanceOf(InMemoryLockManager);
    expect(defaultLockManager()).toBe(defaultLockManager());
  });
});
