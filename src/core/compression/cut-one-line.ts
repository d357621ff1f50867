/**
 * Text shortened for one line of a digest (the offline summariser's actions, files, errors):
 * Python-whitespace runs become single spaces, the ends are stripped, and a text longer than
 * `limit` code points keeps its first `limit - 1` and an ellipsis.
 */
import { pythonLength, pythonSlice } from '../tokens/python-length.ts';
import { collapseWhitespace, pythonLStrip, replaceWhitespaceRuns } from './python-text.ts';

/** How much of a long text `cutOneLine` collapses first: enough for `limit` characters unless it is mostly whitespace. */
const CUT_WINDOW_PER_CHARACTER = 4;

/**
 * The text on one line, whitespace runs as single spaces, cut to `limit` characters with an
 * ellipsis. A long text (a whole tool output, a pasted log) is collapsed only as far as the cut
 * needs: when its first `4 × limit` characters already collapse to `limit + 2` or more, the
 * whole text collapses to more than `limit` (a collapsed text never holds two spaces in a row,
 * so one of the two characters past the limit is not a space, and no strip removes it), and its
 * first `limit - 1` characters are those of the window's.
 */
export function cutOneLine(text: string, limit: number): string {
  const window = CUT_WINDOW_PER_CHARACTER * limit;
  if (text.length > window) {
    const head = replaceWhitespaceRuns(pythonLStrip(text.slice(0, window)));
    if (pythonLength(head) >= limit + 2) return `${pythonSlice(head, 0, limit - 1)}…`;
  }
  const flat = collapseWhitespace(text);
  return pythonLength(flat) > limit ? `${pythonSlice(flat, 0, limit - 1)}…` : flat;
}
