import { capAtWord } from './cap-at-word.ts';

/** Longest ask kept: the gist of a request, not a pasted essay. */
export const MAX_ASK_CHARACTERS = 160;
/** A first sentence shorter than this ("Hi!", "Thanks.") is joined with the next one. */
const MIN_SENTENCE_CHARACTERS = 16;

/**
 * The first sentence of a request, as an ask fact shows it: leading blank lines, lone tag lines
 * (`<pr_description>`) and Markdown markers skipped, cut at the first `.`, `!` or `?` followed by
 * a space or at the end of the line, without the final punctuation. A greeting too short to say
 * anything runs on into the next sentence.
 *
 * @example firstSentence('Hello Claude! Can you fix the login bug? It fails on Safari.')
 * // 'Hello Claude! Can you fix the login bug'
 */
export function firstSentence(text: string): string {
  // Only the start of a long pasted line can hold the first sentence.
  const line = firstContentLine(text)
    .slice(0, MAX_ASK_CHARACTERS * 4)
    .replace(/^(?:[#>*-]+\s*|\d+\.\s+)/, '');
  let end = -1;
  const terminator = /[.!?](?=\s|$)/g;
  for (let match = terminator.exec(line); match !== null; match = terminator.exec(line)) {
    if (match.index >= MIN_SENTENCE_CHARACTERS) {
      end = match.index;
      break;
    }
  }
  const sentence = end === -1 ? line : line.slice(0, end);
  return capAtWord(sentence.trim(), MAX_ASK_CHARACTERS).replace(/[.!?:;,\s]+$/, '');
}

function firstContentLine(text: string): string {
  let from = 0;
  while (from < text.length) {
    const newline = text.indexOf('\n', from);
    const line = text.slice(from, newline === -1 ? text.length : newline).trim();
    if (line !== '' && !/^<\/?[\w-]+>$/.test(line)) return line;
    if (newline === -1) break;
    from = newline + 1;
  }
  return '';
}
