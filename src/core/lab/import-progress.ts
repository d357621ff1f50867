/**
 * How far a file import has got: bytes read of the file's size, messages built so far, and,
 * once the transcript is being stored, how many of its messages are written.
 */
export interface ImportProgress {
  readonly bytes: number;
  readonly totalBytes: number;
  readonly messages: number;
  /** Messages written to the session store so far; absent until storing starts. */
  readonly stored?: number;
}
