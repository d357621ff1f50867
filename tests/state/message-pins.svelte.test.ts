import { describe, expect, it } from 'vitest';
import { MessagePins } from '#state/message-pins.svelte.ts';

/** A store that records what it was asked and answers when the test says. */
function deferredStore() {
  const calls: Array<{ index: number; pinned: boolean; settle: (error?: Error) => void }> = [];
  const store = (index: number, pinned: boolean) =>
    new Promise<void>((resolve, reject) =>
      calls.push({ index, pinned, settle: (error) => (error ? reject(error) : resolve()) }),
    );
  return { store, calls };
}

describe('MessagePins', () => {
  it('shows a pin at once, stores it, and lists the pins in order', async () => {
    const { store, calls } = deferredStore();
    const pins = new MessagePins(store);
    let changes = 0;
    pins.onChange(() => changes++);
    const first = pins.toggle(12);
    const second = pins.toggle(3);
    expect(pins.indices).toEqual([3, 12]);
    expect(pins.has(12)).toBe(true);
    expect(pins.count).toBe(2);
    expect(changes).toBe(2);
    expect(calls.map(({ index, pinned }) => [index, pinned])).toEqual([
      [12, true],
      [3, true],
    ]);
    for (const call of calls) call.settle();
    await Promise.all([first, second]);
    expect(pins.error).toBeNull();
    // Unpinning is stored the same way.
    const unpinning = pins.toggle(12);
    expect(pins.indices).toEqual([3]);
    expect(calls[2]).toMatchObject({ index: 12, pinned: false });
    calls[2]!.settle();
    await unpinning;
    expect(pins.indices).toEqual([3]);
  });

  it('takes back a pin that could not be stored and says why', async () => {
    const { store, calls } = deferredStore();
    const pins = new MessagePins(store);
    const pinning = pins.toggle(7);
    expect(pins.has(7)).toBe(true);
    calls[0]!.settle(new Error('the session no longer exists'));
    await pinning;
    expect(pins.has(7)).toBe(false);
    expect(pins.error).toBe('Could not pin message #7: the session no longer exists');
    // The next change clears the message.
    const again = pins.toggle(8);
    expect(pins.error).toBeNull();
    calls[1]!.settle();
    await again;
    expect(pins.indices).toEqual([8]);
  });

  it('replaces its pins for a new transcript without storing, and a late failure of the old one changes nothing', async () => {
    const { store, calls } = deferredStore();
    const pins = new MessagePins(store);
    const pinning = pins.toggle(4);
    pins.reset([9, 2]);
    expect(pins.indices).toEqual([2, 9]);
    calls[0]!.settle(new Error('gone'));
    await pinning;
    expect(pins.indices).toEqual([2, 9]);
    expect(pins.error).toBeNull();
    expect(calls).toHaveLength(1);
  });

  it('ignores a change to what is already so and an index that is not one', async () => {
    const { store, calls } = deferredStore();
    const pins = new MessagePins(store);
    pins.reset([5]);
    await pins.set(5, true);
    await pins.set(6, false);
    await pins.set(-1, true);
    await pins.set(1.5, true);
    expect(calls).toHaveLength(0);
    expect(pins.indices).toEqual([5]);
  });
});
