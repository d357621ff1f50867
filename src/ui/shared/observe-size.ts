/** An element's client width and height (padding included, as `clientWidth`/`clientHeight`). */
export interface ClientSize {
  width: number;
  height: number;
}

/**
 * A Svelte action that reports an element's client size whenever it changes, from a
 * ResizeObserver only: the first report comes right after the browser's next layout. Why not
 * `bind:clientWidth`: Svelte also reads the size synchronously when the element mounts, which
 * forces a layout of the whole page in the middle of the update that mounted it; on the first
 * draw of a 100 MiB import that forced layout was 20–40 ms of a main-thread task over 50 ms.
 */
export function observeSize(
  node: HTMLElement,
  report: (size: ClientSize) => void,
): { update: (next: (size: ClientSize) => void) => void; destroy: () => void } {
  let current = report;
  // Inside the observer's callback the layout is fresh, so reading the size costs nothing.
  const observer = new ResizeObserver(() => current({ width: node.clientWidth, height: node.clientHeight }));
  observer.observe(node);
  return {
    update: (next) => {
      current = next;
    },
    destroy: () => observer.disconnect(),
  };
}
