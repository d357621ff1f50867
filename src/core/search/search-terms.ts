/**
 * Search terms: how message text becomes the keys of the session store's inverted index.
 *
 * Modelled on SQLite FTS5's `unicode61` tokenizer, which Hermes' `messages_fts` uses
 * (hermes-reference §11): a word is a run of letters, digits and combining marks, everything
 * else (spaces, punctuation, `_`, `-`, `.`) separates words, case is folded and Latin
 * diacritics are removed, so `Café_Total` gives `cafe` and `total`. Hermes adds a trigram
 * table for CJK, whose scripts have no spaces; an inverted index of whole words cannot do
 * substrings, so CJK runs become overlapping bigrams instead (the Lucene CJK analyzer's
 * approach) plus the run's last character alone, so that every character starts some term
 * and a one-character query can be answered as a prefix lookup.
 */

/** Longer tokens (hashes, base64) are cut to this many code points, in the index and the query alike. */
export const MAXIMUM_TERM_LENGTH_CHARS = 64;

/** Scripts written without spaces between words, indexed as bigrams. */
const CJK_SCRIPTS = '\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Hangul}';

/**
 * How many characters (code points) one match takes at most. A quantified group with a lookahead makes the
 * regular expression engine keep a backtracking frame per repetition, so an unbounded run of
 * millions of letters exceeded the call stack ("Maximum call stack size exceeded" on an 8 MB
 * message). Runs are matched in windows of this size and joined again where they touch.
 */
const MATCH_WINDOW_CHARACTERS = 1024;

/**
 * Group 1: a run of CJK letters (the lookahead keeps CJK punctuation such as `、。` out).
 * Group 2: a run of any other letters, digits and marks.
 */
const TOKEN_PATTERN = new RegExp(
  `((?:(?=[\\p{L}\\p{N}])[${CJK_SCRIPTS}]){1,${MATCH_WINDOW_CHARACTERS}})|((?:(?![${CJK_SCRIPTS}])[\\p{L}\\p{N}\\p{M}]){1,${MATCH_WINDOW_CHARACTERS}})`,
  'gu',
);

/**
 * A word keeps only `MAXIMUM_TERM_LENGTH_CHARS` code points, so of a very long word only its
 * first this many units are normalised (normalising all of an 8 MB word would only be cut).
 */
const WORD_PREFIX_UNITS = 4 * MATCH_WINDOW_CHARACTERS;

/** The Combining Diacritical Marks block: accents on Latin, Greek and Cyrillic letters. */
const LATIN_DIACRITICS = /[\u0300-\u036f]/g;

export type TermKind = 'word' | 'cjk';

/** One term where it occurs in the text; `start`/`end` are UTF-16 offsets into the original. */
export interface TermOccurrence {
  term: string;
  kind: TermKind;
  start: number;
  end: number;
}

/**
 * Every term occurrence of `text`, in order. CJK runs yield their bigrams (and the run's last
 * character); other words yield themselves.
 *
 * @example
 * termOccurrences('Fix 中文字').map((occurrence) => occurrence.term) // ['fix', '中文', '文字', '字']
 */
export function termOccurrences(text: string): TermOccurrence[] {
  const occurrences: TermOccurrence[] = [];
  forEachTermOccurrence(text, (occurrence) => occurrences.push(occurrence));
  return occurrences;
}

/**
 * Calls `visit` with every term occurrence of `text`, in order, without collecting them: an
 * unbroken CJK run of millions of characters has millions of bigrams. Linear in the text, with
 * bounded stack and memory per run, whatever the length of a run.
 */
export function forEachTermOccurrence(text: string, visit: (occurrence: TermOccurrence) => void): void {
  const steps = scanTermOccurrences(text, visit, Number.POSITIVE_INFINITY);
  while (!steps.next().done);
}

/**
 * `forEachTermOccurrence` in steps: it pauses (yields) each time another `stepChars` of the text
 * has been read, so a caller can give the event loop a turn inside one long message.
 */
function* scanTermOccurrences(
  text: string,
  visit: (occurrence: TermOccurrence) => void,
  stepChars: number,
): Generator<void, void> {
  // The run being read, which may span several windows of the pattern.
  let runKind: TermKind | null = null;
  let runEnd = -1;
  let wordStart = 0;
  let wordPrefix = '';
  // CJK: the last character of the previous window, whose bigram needs the next one.
  let pendingCharacter = '';
  let pendingStart = 0;

  const endRun = (): void => {
    if (runKind === 'word') {
      visit({ term: normalizeWord(wordPrefix), kind: 'word', start: wordStart, end: runEnd });
    } else if (runKind === 'cjk' && pendingCharacter !== '') {
      visit({
        term: normalizeCjk(pendingCharacter),
        kind: 'cjk',
        start: pendingStart,
        end: pendingStart + pendingCharacter.length,
      });
    }
    runKind = null;
    wordPrefix = '';
    pendingCharacter = '';
  };

  const readMatch = (start: number, match: RegExpMatchArray): void => {
    const kind: TermKind = match[1] === undefined ? 'word' : 'cjk';
    if (kind !== runKind || start !== runEnd) {
      endRun();
      runKind = kind;
      wordStart = start;
    }
    runEnd = start + match[0].length;
    if (kind === 'word') {
      if (wordPrefix.length < WORD_PREFIX_UNITS) wordPrefix += match[0];
      return;
    }
    let offset = start;
    for (const character of match[0]) {
      if (pendingCharacter !== '') {
        visit({
          term: normalizeCjk(pendingCharacter + character),
          kind: 'cjk',
          start: pendingStart,
          end: offset + character.length,
        });
      }
      pendingCharacter = character;
      pendingStart = offset;
      offset += character.length;
    }
  };

  // The text is read in windows of `stepChars` (whole when that is infinite), so a step takes
  // bounded time even through text with no term at all. A match never spans a window edge, and a
  // run cut by one continues in the next window's first match, which `readMatch` joins to it.
  for (let windowStart = 0; windowStart < text.length;) {
    let windowEnd = Math.min(text.length, windowStart + stepChars);
    if (windowEnd < text.length && isLowSurrogate(text.charCodeAt(windowEnd))) windowEnd += 1;
    const part = windowStart === 0 && windowEnd === text.length ? text : text.slice(windowStart, windowEnd);
    for (const match of part.matchAll(TOKEN_PATTERN)) {
      const start = windowStart + match.index;
      readMatch(start, match);
    }
    windowStart = windowEnd;
    if (windowStart < text.length) yield;
  }
  endRun();
}

const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** The distinct terms of `text`, in order of first appearance: what the index stores. */
export function searchTermsOf(text: string): string[] {
  const steps = searchTermsInSteps(text, Number.POSITIVE_INFINITY);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `searchTermsOf` in steps of about `stepChars` of text: each `next()` reads one step and the
 * last returns the terms. Lets the store index a 10 MB message without freezing the page.
 *
 * The same terms as `termOccurrences`, found faster. An ASCII character that is neither a letter
 * nor a digit ends every term, whatever the script around it, so the text falls into independent
 * pieces between such separators. A piece of ASCII letters and digits only is one word whose
 * normal form is just its lower case (NFKD, diacritic removal and NFC leave ASCII unchanged);
 * only a piece holding some other character goes through the Unicode pattern. Agent transcripts
 * are mostly ASCII (tests/core/search/search-terms.test.ts holds the two to the same terms).
 *
 * Each step is a window of the text cut at a separator, so no piece spans two windows. An
 * all-ASCII window is lower-cased once and its words are found by one global match, which the
 * regular expression engine runs natively: storing a 100 MiB import spent 2 s of the worker in a
 * character loop here, about a third more than this.
 */
export function* searchTermsInSteps(text: string, stepChars: number): Generator<void, string[]> {
  const terms = new Set<string>();
  const add = (occurrence: TermOccurrence): void => void terms.add(occurrence.term);
  for (let windowStart = 0; windowStart < text.length;) {
    const windowEnd = nextSeparatorFrom(text, windowStart + stepChars);
    const window = windowStart === 0 && windowEnd === text.length ? text : text.slice(windowStart, windowEnd);
    if (!NON_ASCII_PATTERN.test(window)) {
      for (const word of window.toLowerCase().match(ASCII_WORD_PATTERN) ?? []) terms.add(capAscii(word));
    } else {
      for (const piece of window.match(PIECE_PATTERN) ?? []) {
        if (!NON_ASCII_PATTERN.test(piece)) terms.add(capAscii(piece).toLowerCase());
        // The pattern's scan takes its own steps through the piece.
        else yield* scanTermOccurrences(piece, add, stepChars);
      }
    }
    windowStart = windowEnd;
    if (windowStart < text.length) yield;
  }
  return [...terms];
}

const NON_ASCII_PATTERN = /[^\x00-\x7f]/;

/** A word of lower-case ASCII letters and digits. */
const ASCII_WORD_PATTERN = /[a-z0-9]+/g;

/** A piece: a run of anything but ASCII separators (ASCII letters, digits, any non-ASCII unit). */
const PIECE_PATTERN = /[A-Za-z0-9\u0080-\uffff]+/g;

/** An ASCII character that is neither a letter nor a digit: a piece ends there. */
const SEPARATOR_PATTERN = /[^A-Za-z0-9\u0080-\uffff]/g;

/** The first separator at or after `from`, or the end of the text: where a window may end. */
function nextSeparatorFrom(text: string, from: number): number {
  if (from >= text.length) return text.length;
  SEPARATOR_PATTERN.lastIndex = from;
  return SEPARATOR_PATTERN.exec(text)?.index ?? text.length;
}

/** An ASCII word cut to the term length (one code unit is one code point in ASCII). */
const capAscii = (word: string): string =>
  word.length > MAXIMUM_TERM_LENGTH_CHARS ? word.slice(0, MAXIMUM_TERM_LENGTH_CHARS) : word;

/** Case-folded, Latin accents removed, compatibility forms unified (`ｆｕｌｌ` → `full`). */
export function normalizeWord(word: string): string {
  const folded = word.normalize('NFKD').replace(LATIN_DIACRITICS, '').normalize('NFC').toLowerCase();
  return capLength(folded);
}

/**
 * CJK keeps its marks: stripping them would merge が into か. NFKC still unifies half- and
 * full-width forms.
 */
export function normalizeCjk(text: string): string {
  return capLength(text.normalize('NFKC').toLowerCase());
}

function capLength(term: string): string {
  if (term.length <= MAXIMUM_TERM_LENGTH_CHARS) return term;
  return Array.from(term).slice(0, MAXIMUM_TERM_LENGTH_CHARS).join('');
}
