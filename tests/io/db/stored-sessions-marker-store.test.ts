import { describe, expect, it } from 'vitest';
import {
  STORED_SESSIONS_MARKER_KEY,
  StoredSessionsMarkerStore,
  type KeyValueStorage,
} from '#io/db/stored-sessions-marker-store.ts';

const memoryStorage = (): KeyValueStorage & { items: Map<string, string> } => {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
  };
};

describe('StoredSessionsMarkerStore', () => {
  it('writes and reads the marker back', () => {
    const storage = memoryStorage();
    const store = new StoredSessionsMarkerStore(storage);
    expect(store.read()).toBeNull();
    store.write({ count: 3, newestId: '20270115_080000_000001' });
    expect(storage.items.get(STORED_SESSIONS_MARKER_KEY)).toBe(
      '{"count":3,"newestId":"20270115_080000_000001"}',
    );
    expect(store.read()).toEqual({ count: 3, newestId: '20270115_080000_000001' });
  });

  it('treats a damaged marker as none', () => {
    const storage = memoryStorage();
    const store = new StoredSessionsMarkerStore(storage);
    for (const text of ['not json', '[]', '{"count":-1,"newestId":null}', '{"count":2,"newestId":7}']) {
      storage.items.set(STORED_SESSIONS_MARKER_KEY, text);
      expect(store.read(), text).toBeNull();
    }
  });

  it('never throws when localStorage is unavailable or full', () => {
    const broken: KeyValueStorage = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    const store = new StoredSessionsMarkerStore(broken);
    expect(store.read()).toBeNull();
    expect(() => store.write({ count: 1, newestId: 'a' })).not.toThrow();
    expect(new StoredSessionsMarkerStore(null).read()).toBeNull();
  });
});
