import { describe, expect, it } from 'vitest';
import { createBrowserStorage } from '#io/db/browser-storage.ts';

describe('createBrowserStorage', () => {
  it('reads the estimate and the persistence of the storage manager', async () => {
    const storage = createBrowserStorage({
      estimate: async () => ({ usage: 1024, quota: 4096 }),
      persisted: async () => false,
      persist: async () => true,
    });
    expect(await storage.estimate()).toEqual({ usageBytes: 1024, quotaBytes: 4096 });
    expect(await storage.persisted()).toBe(false);
    expect(await storage.persist()).toBe(true);
  });

  it('answers null where the browser has no such API or it fails', async () => {
    const missing = createBrowserStorage(undefined);
    expect(await missing.estimate()).toBeNull();
    expect(await missing.persisted()).toBeNull();
    const failing = createBrowserStorage({
      estimate: async () => Promise.reject(new TypeError('no')),
      persist: async () => Promise.reject(new DOMException('denied', 'SecurityError')),
    });
    expect(await failing.estimate()).toBeNull();
    expect(await failing.persist()).toBeNull();
    expect(await createBrowserStorage({ estimate: async () => ({}) }).estimate()).toBeNull();
  });
});
