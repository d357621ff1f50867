import { formatCount } from '../shared/format-count.ts';
import { plural } from '../shared/plural.ts';

/** Whether a compaction shrank the context, and in words why it must not be applied when it did not. */
export interface CompactionGrowth {
  readonly grows: boolean;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Set when it grows: one sentence a person can act on. */
  readonly reason: string | null;
}

/**
 * Judges a compaction's result by its size: a compaction whose result holds at least as many
 * tokens as its input (a short transcript, where the summary and its framing outweigh the
 * messages they replace) saves nothing and loses detail, so it is refused, as Roo Code
 * refuses a condense that would grow the context. Both counts must come from one counter.
 *
 * @example
 * judgeCompactionGrowth(232, 578, 3).grows // → true
 */
export function judgeCompactionGrowth(
  tokensBefore: number,
  tokensAfter: number,
  summarisedMessages: number,
): CompactionGrowth {
  if (tokensAfter < tokensBefore) return { grows: false, tokensBefore, tokensAfter, reason: null };
  const added = tokensAfter - tokensBefore;
  const what = plural(summarisedMessages, 'message');
  return {
    grows: true,
    tokensBefore,
    tokensAfter,
    reason:
      `the compacted context would hold ${formatCount(tokensAfter)} tokens, ${formatCount(added)} more than the ` +
      `${formatCount(tokensBefore)} it held before: the summary and its framing outweigh the ${what} they stand for`,
  };
}
