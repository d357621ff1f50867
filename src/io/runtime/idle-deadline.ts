/**
 * The caller's signal joined with an inactivity deadline: the joined signal aborts with a
 * `TimeoutError` DOMException (which the clients report as a `timeout` LlmError, not a cancel)
 * when `touch()` has not been called for `idleMs`; the caller's own abort passes through with
 * its reason. For streamed replies: a reply that keeps streaming may take as long as it needs,
 * a provider that goes silent (before the answer or mid-stream) is given up on.
 */
export interface IdleDeadline {
  readonly signal: AbortSignal;
  /** Restarts the countdown (call it on every sign of life). */
  touch(): void;
  /** Stops the countdown and detaches from the caller's signal. */
  dispose(): void;
}

export function idleDeadline(signal: AbortSignal, idleMs: number): IdleDeadline {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal.reason);
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener('abort', onAbort, { once: true });
  const expire = (): void =>
    controller.abort(new DOMException(`No answer from the provider for ${idleMs} ms`, 'TimeoutError'));
  let timer: ReturnType<typeof setTimeout> | undefined = controller.signal.aborted
    ? undefined
    : setTimeout(expire, idleMs);
  return {
    signal: controller.signal,
    touch: () => {
      if (timer === undefined) return;
      clearTimeout(timer);
      timer = setTimeout(expire, idleMs);
    },
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      signal.removeEventListener('abort', onAbort);
    },
  };
}
