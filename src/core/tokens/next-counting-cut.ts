/**
 * Where a text may be cut so that counting its parts separately costs bounded work per piece
 * and, on ordinary text, gives exactly the count of the whole.
 *
 * tiktoken-style tokenisers (cl100k_base, o200k_base) first split text with a regular
 * expression into pieces (words with one leading character, runs of digits of at most 3, runs
 * of punctuation, runs of whitespace) and then merge bytes inside each piece. The merge is
 * superlinear in the length of one piece: an unbroken run of 100,000 letters takes seconds to
 * minutes. Meta's Llama 3 tokenizer (tiktoken-based) bounds this by cutting runs of more than
 * 25,000 consecutive whitespace or non-whitespace characters before encoding
 * (`MAX_NO_WHITESPACES_CHARS`, see https://github.com/openai/tiktoken/issues/195); we do the
 * same with a much shorter bound, so that one part costs well under a millisecond.
 *
 * Two kinds of cut:
 * - **safe cuts**, at a position where every split pattern starts a new piece, so the parts
 *   give the same pieces as the whole. These slice long ordinary text (for cooperative
 *   counting) without changing its count;
 * - **run cuts**, inside a run of one character class longer than `maxRunChars` (letters and
 *   marks, whitespace, punctuation and symbols, or `\r \n /`, the classes a piece is made of).
 *   Such a run is one piece and is counted in parts of `maxRunChars`: the count of that run
 *   is then approximate (each cut can add a token), which ordinary text never meets.
 */

/** Parts of one unbroken run are at most this long: ≈0.1 ms of merging each. */
export const MAXIMUM_COUNTED_RUN_CHARS = 256;

const WHITESPACE = 1;
const LETTER = 2;
const PUNCTUATION = 4;
const LINE_OR_SLASH = 8;
const DIGIT = 16;

const CLASS_PATTERNS: ReadonlyArray<readonly [number, RegExp]> = [
  [WHITESPACE, /^\s$/u],
  [LETTER, /^[\p{L}\p{M}]$/u],
  [PUNCTUATION, /^[^\s\p{L}\p{N}]$/u],
  [DIGIT, /^\p{N}$/u],
];

function classify(character: string): number {
  let flags = 0;
  for (const [flag, pattern] of CLASS_PATTERNS) if (pattern.test(character)) flags |= flag;
  if (character === '\r' || character === '\n' || character === '/') flags |= LINE_OR_SLASH;
  return flags;
}

const ASCII_CLASSES: readonly number[] = Array.from({ length: 128 }, (_, code) =>
  classify(String.fromCharCode(code)),
);
/** Non-ASCII code points seen so far (a CJK text has a few thousand). */
const nonAsciiClasses = new Map<number, number>();

function classAt(text: string, index: number): number {
  const code = text.charCodeAt(index);
  if (code < 128) return ASCII_CLASSES[code]!;
  const point = text.codePointAt(index)!;
  let flags = nonAsciiClasses.get(point);
  if (flags === undefined) {
    flags = classify(String.fromCodePoint(point));
    nonAsciiClasses.set(point, flags);
  }
  return flags;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** The class of the character that ends just before `index` (a surrogate pair read whole). */
function classBefore(text: string, index: number): number {
  const start = isLowSurrogate(text.charCodeAt(index - 1)) && index >= 2 ? index - 2 : index - 1;
  return classAt(text, start);
}

/** Special tokens (`<|endoftext|>`, `<|fim_prefix|>`) contain these; a cut never falls on one. */
const NEVER_CUT_BEFORE = new Set(["'", '<', '>', '|', '_']);

/**
 * True when every cl100k/o200k piece ends just before `index`, so the text after it splits
 * exactly as it does in the whole: before a space or tab that follows a non-space; before a
 * line break, punctuation or a symbol that follows a letter or digit (never before `'`, which
 * may start a contraction such as `'s`, nor inside a special token).
 */
export function isSafeCountingCut(text: string, index: number): boolean {
  if (index <= 0 || index >= text.length) return false;
  const code = text.charCodeAt(index);
  if (isLowSurrogate(code)) return false;
  const before = classBefore(text, index);
  if (code === 0x20 || code === 0x09) return (before & WHITESPACE) === 0;
  if ((before & (LETTER | DIGIT)) === 0 || (before & PUNCTUATION) !== 0) return false;
  if (code === 0x0a || code === 0x0d) return true;
  const at = classAt(text, index);
  return (at & PUNCTUATION) !== 0 && (at & LETTER) === 0 && !NEVER_CUT_BEFORE.has(text[index]!);
}

/**
 * The first run of one class (letters and marks, whitespace, punctuation, or `\r \n /`) at
 * least `length` long that starts in `[from, to)` (a run already under way at `from` counts
 * from there); its start, or -1. One pass, no regular expression: an unbounded pattern over a
 * long run is what overflows or stalls in the first place.
 */
function findLongRun(text: string, from: number, to: number, length: number): number {
  // Lengths of the current run of each class, in UTF-16 units.
  let whitespace = 0;
  let letters = 0;
  let punctuation = 0;
  let lineOrSlash = 0;
  const limit = Math.min(text.length, to + length);
  for (let index = from; index < limit;) {
    const code = text.charCodeAt(index);
    const flags = code < 128 ? ASCII_CLASSES[code]! : classAt(text, index);
    const width = isHighSurrogate(code) && index + 1 < text.length ? 2 : 1;
    whitespace = flags & WHITESPACE ? whitespace + width : 0;
    letters = flags & LETTER ? letters + width : 0;
    punctuation = flags & PUNCTUATION ? punctuation + width : 0;
    lineOrSlash = flags & LINE_OR_SLASH ? lineOrSlash + width : 0;
    index += width;
    const longest = Math.max(whitespace, letters, punctuation, lineOrSlash);
    if (longest >= length) {
      const start = index - longest;
      if (start < to) return start;
    }
    // Every run under way started at or after `to`: none that starts before it can follow.
    if (index >= to && index - longest >= to) return -1;
  }
  return -1;
}

/** `index`, moved one unit on when it would split a surrogate pair. */
function keepPairsWhole(text: string, index: number): number {
  return index < text.length && isLowSurrogate(text.charCodeAt(index)) ? index + 1 : index;
}

/**
 * The end of the part that starts at `start`: about `sliceChars` long, ending at a safe cut
 * when one lies in its second half (else cut at `sliceChars`), and ending `maxRunChars` into the
 * first long run it meets, so no part holds more of one run than that.
 *
 * @example
 * nextCountingCut('one two three', 0, 6) // 3: "one", then " two three" from there
 */
export function nextCountingCut(
  text: string,
  start: number,
  sliceChars: number,
  maxRunChars: number = MAXIMUM_COUNTED_RUN_CHARS,
): number {
  if (start >= text.length) return text.length;
  const limit = text.length - start > sliceChars ? start + sliceChars : text.length;
  const run = findLongRun(text, start, limit, maxRunChars + 1);
  if (run >= 0) return Math.max(start + 1, keepPairsWhole(text, Math.max(run, start) + maxRunChars));
  if (limit === text.length) return limit;
  const floor = start + Math.max(1, Math.floor(sliceChars / 2));
  for (let index = limit; index > floor; index--) if (isSafeCountingCut(text, index)) return index;
  return keepPairsWhole(text, limit);
}
