import type { Preset } from '../presets/preset.ts';
import { assertNever } from '../shared/assert-never.ts';
import type { Message } from '../transcript/message.ts';

export interface HeadOptions {
  protectFirstN: number;
  /** Completed compactions of this session so far. */
  compressionCount: number;
  /** A handoff summary from an earlier compaction is known. */
  hasPreviousSummary: boolean;
  /**
   * A leading system message is the chat request's system prompt, which the live loop keeps
   * outside `compress()` (it compacts the stored conversation only): the head is that prompt
   * plus the first n stored messages under either generation.
   */
  systemPromptOutside?: boolean;
}

/**
 * `protect_first_n` as it applies now. 2026-07 decays it to 0 once the session has been
 * compacted (or a previous summary exists), so early turns stop being copied forever (#11996).
 */
export function effectiveProtectFirstN(options: HeadOptions, preset: Preset): number {
  const mode = preset.boundaries.head;
  switch (mode) {
    case 'first-n-including-system':
      return Math.max(0, options.protectFirstN);
    case 'system-plus-decaying-first-n':
      return options.compressionCount >= 1 || options.hasPreviousSummary
        ? 0
        : Math.max(0, options.protectFirstN);
    default:
      return assertNever(mode);
  }
}

/**
 * Hermes `_protect_head_size`: how many leading messages are kept verbatim.
 * 2026-04: `protect_first_n`, the system message counted inside it (unless the system message
 * is a chat request's prompt the loop keeps outside the compaction: then it comes on top).
 * 2026-07: 1 for a leading system message plus the effective `protect_first_n`.
 */
export function protectHeadSize(messages: readonly Message[], options: HeadOptions, preset: Preset): number {
  const firstN = effectiveProtectFirstN(options, preset);
  const mode = preset.boundaries.head;
  switch (mode) {
    case 'first-n-including-system':
      return firstN + (options.systemPromptOutside && messages[0]?.role === 'system' ? 1 : 0);
    case 'system-plus-decaying-first-n':
      return (messages[0]?.role === 'system' ? 1 : 0) + firstN;
    default:
      return assertNever(mode);
  }
}

/** `compress()` returns its input unchanged unless there are more messages than this. */
export const minMessagesExclusive = (headSize: number): number => headSize + 3 + 1;

/** The early exit of `compress()`: `len(messages) <= head + 3 + 1` (2026-04: `protect_first_n + 4`). */
export const isTooFewToCompress = (messageCount: number, headSize: number): boolean =>
  messageCount <= minMessagesExclusive(headSize);
