import type { Preset } from '../presets/preset.ts';
import type { Message } from '../transcript/message.ts';
import { alignBoundaryForward } from './align-boundaries.ts';
import { findTailCut, type TailCut } from './find-tail-cut.ts';
import { isTooFewToCompress, minMessagesExclusive, protectHeadSize } from './protect-head-size.ts';

export interface BoundaryOptions {
  protectFirstN: number;
  protectLastN: number;
  tailTokenBudget: number;
  /** Completed compactions of this session (2026-07 decays the head after the first). */
  compressionCount: number;
  /** A handoff summary from an earlier compaction is known (also decays the head). */
  hasPreviousSummary: boolean;
}

export interface BoundaryPlan {
  /** Messages kept verbatim at the start, before forward alignment (`_protect_head_size`). */
  protectHeadSize: number;
  /** `compress_start`: the head after sliding past tool results. `messages[0:headEnd]` is kept. */
  headEnd: number;
  /** `compress_end`: `messages[tailStart:]` is kept; the middle `[headEnd, tailStart)` is summarised. */
  tailStart: number;
  /** Hermes `has_content_to_compress`: `headEnd < tailStart`. */
  hasContentToCompress: boolean;
  /** `compress()` returns its input unchanged with this few messages (`len ≤ head + 3 + 1`). */
  tooFewMessages: boolean;
  /** The message count `compress()` needs to exceed. */
  minMessagesExclusive: number;
  tailCut: TailCut;
}

/**
 * Phase 2 of `compress()`: head and tail boundaries on the (normally already pruned) messages.
 * The plan is computed even when `tooFewMessages` is set, as Hermes' `has_content_to_compress`
 * does; `compress()` itself stops early then.
 */
export function planBoundaries(
  messages: readonly Message[],
  options: BoundaryOptions,
  preset: Preset,
): BoundaryPlan {
  const headSize = protectHeadSize(messages, options, preset);
  const headEnd = alignBoundaryForward(messages, headSize);
  const tailCut = findTailCut(
    messages,
    headEnd,
    { tailTokenBudget: options.tailTokenBudget, protectLastN: options.protectLastN },
    preset,
  );
  return {
    protectHeadSize: headSize,
    headEnd,
    tailStart: tailCut.tailStart,
    hasContentToCompress: headEnd < tailCut.tailStart,
    tooFewMessages: isTooFewToCompress(messages.length, headSize),
    minMessagesExclusive: minMessagesExclusive(headSize),
    tailCut,
  };
}
