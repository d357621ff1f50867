import { nextCountingCut } from '../core/tokens/next-counting-cut.ts';
import type { TokenCounter } from '../core/tokens/token-counter.ts';
import { COUNTING_SLICE_CHARS } from './token-documents.ts';

/**
 * Counts one text in parts (`nextCountingCut`, so the count is that of the whole), giving the
 * event loop a turn whenever `sliceMs` have passed: other requests to the worker (a plan, an
 * import) are answered in between instead of after the whole count.
 */
export async function countTextCooperatively(
  text: string,
  counter: TokenCounter,
  options: { sliceMs: number; now: () => number; yieldToEvents: () => Promise<void> },
): Promise<number> {
  if (text.length <= COUNTING_SLICE_CHARS) return counter.count(text);
  let tokens = 0;
  let sliceEnd = options.now() + options.sliceMs;
  for (let start = 0; start < text.length;) {
    const end = nextCountingCut(text, start, COUNTING_SLICE_CHARS);
    tokens += counter.count(text.slice(start, end));
    start = end;
    if (start < text.length && options.now() > sliceEnd) {
      await options.yieldToEvents();
      sliceEnd = options.now() + options.sliceMs;
    }
  }
  return tokens;
}
