import { MAXIMUM_COUNTED_RUN_CHARS, nextCountingCut } from './next-counting-cut.ts';
import type { TokenCounter } from './token-counter.ts';

/**
 * How much text one call of the wrapped counter sees at most. Large, so ordinary text is cut
 * rarely (only at safe cuts, where the count does not change); it only has to be finite so that
 * finding the next cut never rescans the rest of a long text.
 */
const BOUNDED_PART_CHARS = 1 << 20;

/**
 * A counter whose work is linear in the text, whatever the text: `counter` (a tiktoken-style
 * BPE, superlinear in the length of one pre-tokenised piece) sees long texts in parts cut by
 * `nextCountingCut`, so a run of millions of one character costs parts of `maxRunChars`. On
 * text without such runs the count is exactly the wrapped counter's.
 */
export function boundTokenCounter(
  counter: TokenCounter,
  maxRunChars: number = MAXIMUM_COUNTED_RUN_CHARS,
): TokenCounter {
  return {
    count(text) {
      if (text.length <= maxRunChars) return counter.count(text);
      let tokens = 0;
      for (let start = 0; start < text.length;) {
        const end = nextCountingCut(text, start, BOUNDED_PART_CHARS, maxRunChars);
        tokens += counter.count(start === 0 && end === text.length ? text : text.slice(start, end));
        start = end;
      }
      return tokens;
    },
  };
}
