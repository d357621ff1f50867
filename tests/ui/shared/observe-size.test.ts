// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { observeSize, type ClientSize } from '#ui/shared/observe-size.ts';

/** A ResizeObserver the test fires by hand (jsdom has no layout). */
class FakeResizeObserver {
  static instances: FakeResizeObserver[] = [];
  observed: Element[] = [];
  disconnected = false;
  readonly callback: () => void;
  constructor(callback: () => void) {
    this.callback = callback;
    FakeResizeObserver.instances.push(this);
  }
  observe(element: Element): void {
    this.observed.push(element);
  }
  unobserve(): void {}
  disconnect(): void {
    this.disconnected = true;
  }
}

const original = globalThis.ResizeObserver;
afterEach(() => {
  globalThis.ResizeObserver = original;
  FakeResizeObserver.instances = [];
});

describe('observeSize', () => {
  it('reads nothing when it is attached and reports the client size each time the observer fires', () => {
    globalThis.ResizeObserver = FakeResizeObserver as unknown as typeof ResizeObserver;
    const node = document.createElement('div');
    let width = 0;
    Object.defineProperty(node, 'clientWidth', {
      get: () => {
        width += 100;
        return width;
      },
    });
    Object.defineProperty(node, 'clientHeight', { get: () => 40 });
    const sizes: ClientSize[] = [];
    const action = observeSize(node, (size) => sizes.push(size));
    // Reading clientWidth on attach would force a layout in the middle of the update.
    expect(width).toBe(0);
    const observer = FakeResizeObserver.instances[0]!;
    expect(observer.observed).toEqual([node]);
    observer.callback();
    const later: ClientSize[] = [];
    action.update((size) => later.push(size));
    observer.callback();
    expect(sizes).toEqual([{ width: 100, height: 40 }]);
    expect(later).toEqual([{ width: 200, height: 40 }]);
    action.destroy();
    expect(observer.disconnected).toBe(true);
  });
});
