import { err, ok, type Result } from '../../core/shared/result.ts';

/** The browser refused a write for lack of space. Nothing of the failed write was stored. */
export interface StorageFullError {
  readonly type: 'StorageFull';
  readonly message: string;
}

/**
 * Whether an error is, or wraps, a quota failure. Dexie rethrows IndexedDB's DOMException as
 * `Dexie.QuotaExceededError` (same name) and sometimes as an `AbortError` of the transaction
 * whose `inner` is the quota error; a bulk write lists its failures.
 */
export function isQuotaExceededError(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const candidate = error as { name?: unknown; inner?: unknown; cause?: unknown; failures?: unknown };
  if (candidate.name === 'QuotaExceededError') return true;
  if (isQuotaExceededError(candidate.inner, depth + 1) || isQuotaExceededError(candidate.cause, depth + 1)) {
    return true;
  }
  return (
    Array.isArray(candidate.failures) &&
    candidate.failures.some((failure) => isQuotaExceededError(failure, depth + 1))
  );
}

/**
 * Runs one write transaction and turns a quota failure into a `StorageFull` value. The
 * transaction has rolled back by the time the error arrives, so what was stored before is
 * intact. Other errors are bugs or a broken database and are rethrown.
 */
export async function runStorageWrite<T, E>(
  write: () => Promise<Result<T, E>>,
): Promise<Result<T, E | StorageFullError>> {
  try {
    return await write();
  } catch (error) {
    if (!isQuotaExceededError(error)) throw error;
    return err({
      type: 'StorageFull',
      message: `Browser storage is full: ${innerMessage(error)} Nothing was saved; delete old sessions to make room.`,
    });
  }
}

/** A write with no expected failure of its own. */
export const runPlainStorageWrite = <T>(write: () => Promise<T>): Promise<Result<T, StorageFullError>> =>
  runStorageWrite(async () => ok(await write()));

function innerMessage(error: unknown): string {
  const inner = (error as { inner?: unknown }).inner;
  const source = inner instanceof Error || (typeof inner === 'object' && inner !== null) ? inner : error;
  const message = (source as { message?: unknown }).message;
  const text =
    typeof message === 'string' && message.trim().length > 0
      ? message.trim()
      : 'the quota for this site was exceeded';
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
