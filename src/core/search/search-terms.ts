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
 * ASCII words are read by one loop over character codes that hashes each word as it goes and
 * looks it up in `TermSet`: only a word not seen before in this text becomes a string. A regular
 * expression made a string (and hashed it into a `Set`) for every one of the 10.7 million words
 * of the 100 MiB bench import: 3.2 s of the worker's time storing it, 1.55 s in Node, where this
 * takes 1.26 s (issue 17). Each step is a window of the text cut at a separator, so no piece
 * spans two windows.
 */
export function* searchTermsInSteps(text: string, stepChars: number): Generator<void, string[]> {
  const terms = new TermSet();
  const add = (occurrence: TermOccurrence): void => terms.add(occurrence.term);
  for (let windowStart = 0; windowStart < text.length;) {
    const windowEnd = nextSeparatorFrom(text, windowStart + stepChars);
    for (let from = windowStart; from < windowEnd;) {
      // Up to the next piece holding a non-ASCII unit, which the pattern reads.
      const piece = addAsciiWords(text, from, windowEnd, terms);
      if (piece === windowEnd) break;
      let end = piece + 1;
      while (end < windowEnd && isPieceCode(text.charCodeAt(end))) end++;
      // The pattern's scan takes its own steps through the piece.
      yield* scanTermOccurrences(text.slice(piece, end), add, stepChars);
      from = end;
    }
    windowStart = windowEnd;
    if (windowStart < text.length) yield;
  }
  return terms.list();
}

/**
 * Adds the ASCII words of `text[from, end)` to `terms`, each hashed as it is read; stops at the
 * first piece that holds a non-ASCII unit and returns where that piece starts (`end` if none).
 */
function addAsciiWords(text: string, from: number, end: number, terms: TermSet): number {
  let position = from;
  while (position < end) {
    let code = text.charCodeAt(position);
    if (!isPieceCode(code)) {
      position++;
      continue;
    }
    const start = position;
    let hash = HASH_SEED;
    while (code < 0x80 && isPieceCode(code)) {
      if (position - start < MAXIMUM_TERM_LENGTH_CHARS) hash = hashStep(hash, lowerAscii(code));
      position++;
      code = position < end ? text.charCodeAt(position) : SEPARATOR_CODE;
    }
    if (code >= 0x80) return start;
    terms.addAscii(text, start, Math.min(position, start + MAXIMUM_TERM_LENGTH_CHARS), hash);
  }
  return end;
}

/** A space: any ASCII character that is neither a letter nor a digit ends a piece. */
const SEPARATOR_CODE = 0x20;

/** An ASCII letter or digit, or any non-ASCII unit: what pieces are made of. */
const isPieceCode = (code: number): boolean =>
  code >= 0x80 ||
  (code >= 0x61 && code <= 0x7a) ||
  (code >= 0x41 && code <= 0x5a) ||
  (code >= 0x30 && code <= 0x39);

const lowerAscii = (code: number): number => (code >= 0x41 && code <= 0x5a ? code + 0x20 : code);

/** FNV-1a over UTF-16 units: the same for a term read from the text and one given as a string. */
const HASH_SEED = 0x811c9dc5 | 0;
const hashStep = (hash: number, code: number): number => Math.imul(hash ^ code, 0x01000193);

function hashString(term: string): number {
  let hash = HASH_SEED;
  for (let index = 0; index < term.length; index++) hash = hashStep(hash, term.charCodeAt(index));
  return hash;
}

/**
 * The distinct terms of one text in order of first appearance: a `Set` whose ASCII words can be
 * looked up straight from the text (open addressing on their hash), so a repeated word costs a
 * comparison of its characters instead of a new string.
 *
 * Its tables are plain arrays of small integers. One set is made per message, and in Chromium a
 * typed array over 64 bytes gets a backing store outside the JavaScript heap, costly to allocate
 * and to collect; and its integers fit in 31 bits, above which Chromium boxes a number. With an
 * `Int32Array` of slots and full 32-bit hashes, finding the terms of the 100 MiB bench import took
 * 0.94–1.04 s in a Chromium worker, 0.55–0.64 s so (Node, whose small integers are 32-bit and
 * which was as fast either way: 0.85–0.9 s).
 */
class TermSet {
  readonly #terms: string[] = [];
  /** Each term's hash, cut to `SMALL_HASH` bits. */
  readonly #hashes: number[] = [];
  /** Index + 1 of the term in each slot; 0 is an empty slot. Size: a power of two. */
  #slots: number[] = new Array<number>(64).fill(0);

  add(term: string): void {
    const hash = hashString(term) & SMALL_HASH;
    const mask = this.#slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.#slots[slot]!;
      if (entry === 0) return this.#insert(slot, term, hash);
      if (this.#hashes[entry - 1] === hash && this.#terms[entry - 1] === term) return;
    }
  }

  /** Adds `text[start, end)`, ASCII letters and digits, in lower case; `fullHash` is its hash. */
  addAscii(text: string, start: number, end: number, fullHash: number): void {
    const hash = fullHash & SMALL_HASH;
    const mask = this.#slots.length - 1;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.#slots[slot]!;
      if (entry === 0) return this.#insert(slot, text.slice(start, end).toLowerCase(), hash);
      if (this.#hashes[entry - 1] !== hash) continue;
      const term = this.#terms[entry - 1]!;
      if (term.length !== length) continue;
      let same = true;
      for (let index = 0; index < length; index++) {
        if (term.charCodeAt(index) !== lowerAscii(text.charCodeAt(start + index))) {
          same = false;
          break;
        }
      }
      if (same) return;
    }
  }

  list(): string[] {
    return this.#terms;
  }

  #insert(slot: number, term: string, hash: number): void {
    this.#terms.push(term);
    this.#hashes.push(hash);
    this.#slots[slot] = this.#terms.length;
    // At most half full, so a probe finds an empty slot soon.
    if (this.#terms.length * 2 > this.#slots.length) this.#grow();
  }

  #grow(): void {
    const slots: number[] = new Array<number>(this.#slots.length * 2).fill(0);
    const mask = slots.length - 1;
    for (let index = 0; index < this.#hashes.length; index++) {
      let slot = this.#hashes[index]! & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = index + 1;
    }
    this.#slots = slots;
  }
}

/** Hashes are cut to 30 bits in `TermSet`, so Chromium stores them unboxed (see there). */
const SMALL_HASH = 0x3fffffff;

/** An ASCII character that is neither a letter nor a digit: a piece ends there. */
const SEPARATOR_PATTERN = /[^A-Za-z0-9\u0080-\uffff]/g;

/** The first separator at or after `from`, or the end of the text: where a window may end. */
function nextSeparatorFrom(text: string, from: number): number {
  if (from >= text.length) return text.length;
  SEPARATOR_PATTERN.lastIndex = from;
  return SEPARATOR_PATTERN.exec(text)?.index ?? text.length;
}

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
