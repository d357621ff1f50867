import type { Message } from '../transcript/message.ts';

/**
 * Tokens of the leading messages a compaction left as they were: the same object (a kept
 * message) or the same content. This is the part of the compacted request a prefix cache can
 * still read; it stops at the first message that differs.
 */
export function unchangedPrefixTokens(
  before: readonly Message[],
  after: readonly Message[],
  tokensOfBefore: (index: number) => number,
): number {
  let tokens = 0;
  for (let index = 0; index < Math.min(before.length, after.length); index++) {
    const same =
      before[index] === after[index] || JSON.stringify(before[index]) === JSON.stringify(after[index]);
    if (!same) break;
    tokens += tokensOfBefore(index);
  }
  return tokens;
}
