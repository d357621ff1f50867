import { untrack } from 'svelte';
import { afterNextPaint } from './after-next-paint.ts';

/**
 * A value that follows `source()` a paint or more behind, for a component to draw a secondary part
 * of a view from. The first value is there at once; each later one arrives `paints` paints after
 * the change, in a task of its own, so a change that redraws a large view (an imported transcript,
 * its new plan) reaches the secondary parts after the primary one has been drawn and no task draws
 * all of them (SPEC §7: no main-thread task over 50 ms). Parts given 1, 2, 3… follow one per
 * frame, in that order. A value replaced before it arrived is skipped: only the newest is shown.
 * Call it while a component initialises (it owns an effect).
 *
 * @example const plan = followAfterPaint(() => app.plan.plan); // then read plan.current
 */
export function followAfterPaint<T>(source: () => T, paints = 1): { readonly current: T } {
  let current = $state.raw(untrack(source));
  $effect(() => {
    const next = source();
    if (untrack(() => current) === next) return;
    let cancel = (): void => undefined;
    const wait = (left: number): void => {
      cancel = afterNextPaint(() => (left > 1 ? wait(left - 1) : (current = next)));
    };
    wait(paints);
    return () => cancel();
  });
  return {
    get current() {
      return current;
    },
  };
}
