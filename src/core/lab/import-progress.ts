/** How far a file import has got: bytes read of the file's size, messages built so far. */
export interface ImportProgress {
  readonly bytes: number;
  readonly totalBytes: number;
  readonly messages: number;
}
