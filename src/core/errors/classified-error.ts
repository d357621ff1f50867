import type { FailoverReason } from './failover-reason.ts';

/** What the retry loop does next (hermes-reference §7.1, `ClassifiedError`). */
export interface ClassifiedError {
  reason: FailoverReason;
  statusCode: number | null;
  /** The body's `error.message`, else its `message`, else the error text; at most 500 characters. */
  message: string;
  retryable: boolean;
  shouldCompress: boolean;
  shouldRotateCredential: boolean;
  shouldFallback: boolean;
}

export type RecoveryHints = Partial<
  Pick<ClassifiedError, 'retryable' | 'shouldCompress' | 'shouldRotateCredential' | 'shouldFallback'>
>;

/** Builds a result with Hermes' defaults: retryable, nothing else. */
export type ResultFactory = (reason: FailoverReason, hints?: RecoveryHints) => ClassifiedError;

export function classifiedErrorFactory(statusCode: number | null, message: string): ResultFactory {
  return (reason, hints = {}) => ({
    reason,
    statusCode,
    message,
    retryable: hints.retryable ?? true,
    shouldCompress: hints.shouldCompress ?? false,
    shouldRotateCredential: hints.shouldRotateCredential ?? false,
    shouldFallback: hints.shouldFallback ?? false,
  });
}
