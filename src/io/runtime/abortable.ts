/**
 * `promise`, or a rejection with the signal's reason as soon as it aborts. Stop must work at
 * once even when the transport does not notice the abort promptly (the SDK's stream iterator
 * can keep waiting on a body it has cancelled); the abandoned promise is left to settle alone.
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
