import type { CompressorState } from '../core/compression/compressor-state.ts';
import type { Message } from '../core/transcript/message.ts';
import type { Transcript } from '../core/transcript/transcript.ts';

export interface StoredSessionRef {
  readonly id: string;
  readonly title: string | null;
}

/**
 * What the lab needs from session storage. `main.ts` adapts the IndexedDB session repository
 * to it; without one (or in tests) the lab still works, it just keeps nothing.
 */
export interface LabSessionStore {
  /** Stores a transcript as a new session (an import, or the demo before its first continuation). */
  storeTranscript(transcript: Transcript, source: 'import' | 'demo'): Promise<StoredSessionRef>;
  /**
   * Ends `parentId` with reason `compression` and stores the compressed messages as its child
   * continuation, in one transaction.
   */
  storeContinuation(
    parentId: string,
    compressed: readonly Message[],
    details: { compressorState: CompressorState; systemPrompt: string | null },
  ): Promise<StoredSessionRef>;
}
