/**
 * Long operations the page may cancel by a token it chose (an import, storing one). Cooperative:
 * the operation checks its signal between steps and cleans up after itself, so cancelling never
 * needs the worker terminated (which would drop every document it holds).
 */
export class Cancellations {
  readonly #controllers = new Map<string, AbortController>();

  /** A signal for `token`'s operation; none without a token. */
  start(token: string | undefined): AbortSignal | undefined {
    if (token === undefined) return undefined;
    const controller = new AbortController();
    this.#controllers.set(token, controller);
    return controller.signal;
  }

  cancel(token: string): void {
    this.#controllers.get(token)?.abort();
  }

  finish(token: string | undefined): void {
    if (token !== undefined) this.#controllers.delete(token);
  }
}
