import type { CompressorState } from '../core/compression/compressor-state.ts';
import type { CompactionEpochDetails } from '../core/sessions/compaction-epoch.ts';
import type { CompactionMode } from '../core/sessions/compaction-mode.ts';
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
   * Commits a compaction of the stored session `sessionId` with its epoch, in one transaction:
   * in place (its live rows archived, `compressed` the new live rows; the same session comes
   * back) or by rotation (it ends with reason `compression` and a child continuation holding
   * `compressed` comes back).
   */
  commitCompaction(
    sessionId: string,
    compressed: readonly Message[],
    details: {
      mode: CompactionMode;
      compressorState: CompressorState;
      systemPrompt: string | null;
      epoch: CompactionEpochDetails;
    },
  ): Promise<StoredSessionRef>;
}
