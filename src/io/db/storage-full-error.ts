import { err, ok, type Result } from '../../core/shared/result.ts';

/** The browser refused a write for lack of space. Nothing of the failed write was stored. */
export interface StorageFullError {
  readonly type: 'StorageFull';
  readonly message: string;
}

/**
 * What a full disk looks like when it is not a `QuotaExceededError`: Chromium aborts the
 * transaction (`AbortError`) or fails it with `UnknownError`, its LevelDB backend saying
 * `NO_SPACE` or "No space left on device" (ENOSPC); Firefox says the disk is full.
 */
const OUT_OF_SPACE_MESSAGE = /NO_SPACE|no space left|ENOSPC|disk (is )?full|quota/i;

/**
 * Whether an error is, or wraps, a storage-full failure: a `QuotaExceededError`, or an
 * `AbortError`/`UnknownError` whose message says the disk is out of space. Dexie rethrows
 * IndexedDB's DOMException under the same name and sometimes as an `AbortError` of the
 * transaction whose `inner` is the real error; a bulk write lists its failures.
 */
export function isStorageFullError(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const candidate = error as {
    name?: unknown;
    message?: unknown;
    inner?: unknown;
    cause?: unknown;
    failures?: unknown;
  };
  if (candidate.name === 'QuotaExceededError') return true;
  if (
    (candidate.name === 'AbortError' || candidate.name === 'UnknownError') &&
    typeof candidate.message === 'string' &&
    OUT_OF_SPACE_MESSAGE.test(candidate.message)
  ) {
    return true;
  }
  if (isStorageFullError(candidate.inner, depth + 1) || isStorageFullError(candidate.cause, depth + 1)) {
    return true;
  }
  return (
    Array.isArray(candidate.failures) &&
    candidate.failures.some((failure) => isStorageFullError(failure, depth + 1))
  );
}

/**
 * Runs one write transaction and turns a storage-full failure into a `StorageFull` value. The
 * transaction has rolled back by the time the error arrives, so what was stored before is
 * intact. Other errors are bugs or a broken database and are rethrown.
 */
export async function runStorageWrite<T, E>(
  write: () => Promise<Result<T, E>>,
): Promise<Result<T, E | StorageFullError>> {
  try {
    return await write();
  } catch (error) {
    if (!isStorageFullError(error)) throw error;
    return err(storageFull(`Browser storage is full: ${innerMessage(error)}`));
  }
}

/** A write with no expected failure of its own. */
export const runPlainStorageWrite = <T>(write: () => Promise<T>): Promise<Result<T, StorageFullError>> =>
  runStorageWrite(async () => ok(await write()));

/** The `StorageFull` value for a reason, with what it means for the user. */
export function storageFull(reason: string): StorageFullError {
  return { type: 'StorageFull', message: `${reason} Nothing was saved; delete old sessions to make room.` };
}

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
