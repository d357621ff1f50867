/**
 * Review before commit (ROUND2 §4): a compaction of the live chat can stop after the summary is
 * written and before anything is stored, so the user reads, edits, commits or discards it. The
 * runtime hands a `CompactionDraft` to the injected reviewer (the chat's state in the app) and
 * waits for its decision; an edited summary is committed by running the same compaction again
 * with the reviewed bodies (`summaryOverrides`), never through a second compaction path.
 */
import type { LabCompression } from '../../core/lab/lab-compression.ts';
import type { CompactionMode } from '../../core/sessions/compaction-mode.ts';
import type { Result } from '../../core/shared/result.ts';
import type { CompactionReason } from '../../core/strategies/compact-conversation.ts';
import type { Message } from '../../core/transcript/message.ts';

/** A compaction waiting for the user's decision. */
export interface CompactionDraft {
  readonly reason: CompactionReason;
  readonly mode: CompactionMode;
  readonly sessionId: string;
  /** What was compacted: the stored live history, read under the compaction lock. */
  readonly transcript: readonly Message[];
  /** The compaction as the summariser wrote it, with its fidelity and ledger. */
  readonly result: LabCompression;
  /**
   * The request does not fit the window without this compaction (an overflow, or a history
   * already over the window): discarding it ends the turn without sending.
   */
  readonly mustCompact: boolean;
  /** Says so, in words, when `mustCompact`; null otherwise. */
  readonly note: string | null;
  /**
   * The same compaction with these summary bodies, in the order of `result.summaries`, and no
   * summariser call: what committing them would store, with its own fidelity and ledger.
   */
  preview(bodies: readonly string[]): Promise<Result<LabCompression, { message: string }>>;
}

export type ReviewDecision =
  { readonly kind: 'commit'; readonly bodies: readonly string[] } | { readonly kind: 'discard' };

/**
 * Shows a draft and resolves with the user's decision. The signal aborts when the turn is
 * stopped; the reviewer then rejects (or resolves `discard`).
 */
export type CompactionReviewer = (draft: CompactionDraft, signal: AbortSignal) => Promise<ReviewDecision>;

/**
 * Whether a compaction stops for review: `/compress` always does when there is a reviewer (the
 * user asked for it and is at the keyboard); automatic ones when the setting "review compactions
 * before they apply" is on. Replays in the lab review in the lab, not here.
 */
export function needsReview(reason: CompactionReason, reviewAutomatic: boolean): boolean {
  switch (reason) {
    case 'manual':
      return true;
    case 'hygiene':
    case 'preflight':
    case 'pre-api':
    case 'post-turn':
    case 'overflow':
      return reviewAutomatic;
    case 'replay':
      return false;
  }
}

/**
 * Whether the turn cannot go on without this compaction, and what the reviewer is told: an
 * overflow means the provider already refused the request; a history over the window would be.
 */
export function mustCompactNote(
  reason: CompactionReason,
  requestTokens: number,
  contextLength: number,
): string | null {
  if (reason === 'overflow')
    return 'The provider refused the request: it does not fit the context window. It cannot be sent until a compaction is committed; discarding ends this turn.';
  if (reason !== 'manual' && requestTokens >= contextLength)
    return `The request (about ${requestTokens.toLocaleString('en-US')} tokens) does not fit the ${contextLength.toLocaleString('en-US')}-token window. It cannot be sent until a compaction is committed; discarding ends this turn.`;
  return null;
}

/** Whether the reviewer changed any summary body. */
export const bodiesChanged = (result: LabCompression, bodies: readonly string[]): boolean =>
  bodies.length !== result.summaries.length ||
  bodies.some((body, index) => body !== result.summaries[index]!.body);
