import type { CompressorState } from '../core/compression/compressor-state.ts';
import type { CompactionEpochDetails } from '../core/sessions/compaction-epoch.ts';
import type { CompactionMode } from '../core/sessions/compaction-mode.ts';
import type { Message } from '../core/transcript/message.ts';
import type { TranscriptMetadata } from '../core/transcript/transcript.ts';
import type { CanonicalUsage } from '../core/usage/canonical-usage.ts';

export interface StoredSessionRef {
  readonly id: string;
  readonly title: string | null;
}

/** Storing the document the worker holds as a new session (an import, or the demo). */
export interface StoreDocumentInput {
  readonly documentId: string;
  /** The revision on screen: a document replaced meanwhile is not stored. */
  readonly revision: number;
  readonly metadata: TranscriptMetadata;
  readonly source: 'import' | 'demo';
  /** Lets the page cancel the store; nothing is kept then. */
  readonly cancelToken?: string;
  /** Messages written so far. */
  readonly onProgress?: (stored: number) => void;
  /** Indices of the pinned messages: stored pinned. */
  readonly pinned?: readonly number[];
}

/**
 * What the lab needs from session storage. `main.ts` adapts the IndexedDB session repository
 * to it (the worker stores documents it holds; the page stores continuations); without one (or
 * in tests) the lab still works, it just keeps nothing.
 */
export interface LabSessionStore {
  /** Stores a worker document as a new session, from the worker's copy; throws with the reason. */
  storeDocument(input: StoreDocumentInput): Promise<StoredSessionRef>;
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
      /** Indices of `compressed` that hold pinned messages: stored pinned. */
      pinned?: readonly number[];
    },
  ): Promise<StoredSessionRef>;
  /**
   * Records one billed call of a replay's probe on the stored session `sessionId` (its usage
   * events and totals, labelled as a probe); `costUsd` is 0 when the model has no price. Optional:
   * a store without it keeps no probe usage, and the probe says so.
   */
  addProbeUsage?(sessionId: string, usage: CanonicalUsage, costUsd: number, model: string): Promise<void>;
}
