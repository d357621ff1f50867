/**
 * Calls `callback` in a task of its own after the browser has painted what is on screen now
 * (the next animation frame, then a timeout: a frame callback alone runs before that frame's
 * style and layout, in the same task). Returns a function that cancels it. Where there are no
 * animation frames (a test's DOM), a timeout alone.
 *
 * @example const cancel = afterNextPaint(() => (ready = true));
 */
export function afterNextPaint(callback: () => void): () => void {
  let cancelled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const later = (): void => {
    if (!cancelled) timer = setTimeout(() => !cancelled && callback(), 0);
  };
  const frame = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(later) : null;
  if (frame === null) later();
  return () => {
    cancelled = true;
    if (frame !== null) cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
