/**
 * Expected failures are values, not exceptions: they survive the comlink boundary
 * (which forwards only `{message, name, stack}` of a thrown Error) and JSON.
 */
export type Result<T, E> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });
