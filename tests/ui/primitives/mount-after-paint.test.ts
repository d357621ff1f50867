// @vitest-environment jsdom
import { render } from '@testing-library/svelte';
import { createRawSnippet, flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterNextPaint } from '#ui/primitives/after-next-paint.ts';
import MountAfterPaint from '#ui/primitives/MountAfterPaint.svelte';

const content = createRawSnippet(() => ({ render: () => '<p data-testid="late">Drawn.</p>' }));

/** Runs the frame callbacks and the timeouts due now, once: one paint. */
function paint(frames: FrameRequestCallback[]): void {
  for (const callback of frames.splice(0)) callback(0);
  vi.advanceTimersToNextTimer();
  flushSync();
}

describe('MountAfterPaint', () => {
  let frames: FrameRequestCallback[];
  beforeEach(() => {
    vi.useFakeTimers();
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    vi.stubGlobal('cancelAnimationFrame', () => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('mounts its content after as many paints as asked, in a task after each frame', () => {
    const { queryByTestId } = render(MountAfterPaint, { props: { paints: 2, children: content } });
    expect(queryByTestId('late')).toBeNull();
    // The frame alone is not enough: the content waits for the task after it.
    for (const callback of frames.splice(0)) callback(0);
    flushSync();
    expect(queryByTestId('late')).toBeNull();
    vi.advanceTimersToNextTimer();
    flushSync();
    expect(queryByTestId('late')).toBeNull();
    paint(frames);
    expect(queryByTestId('late')?.textContent).toBe('Drawn.');
  });

  it('cancels what it scheduled when it is unmounted first', () => {
    const { unmount } = render(MountAfterPaint, { props: { paints: 1, children: content } });
    unmount();
    for (const callback of frames.splice(0)) callback(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('afterNextPaint', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('falls back to a timeout where there are no animation frames, and can be cancelled', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestAnimationFrame', undefined);
    const called: string[] = [];
    afterNextPaint(() => called.push('first'));
    const cancel = afterNextPaint(() => called.push('cancelled'));
    cancel();
    vi.runAllTimers();
    expect(called).toEqual(['first']);
  });
});
