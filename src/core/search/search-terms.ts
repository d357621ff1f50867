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
 * Group 1: a run of CJK letters (the lookahead keeps CJK punctuation such as `、。` out).
 * Group 2: a run of any other letters, digits and marks.
 */
const TOKEN_PATTERN = new RegExp(
  `((?:(?=[\\p{L}\\p{N}])[${CJK_SCRIPTS}])+)|((?:(?![${CJK_SCRIPTS}])[\\p{L}\\p{N}\\p{M}])+)`,
  'gu',
);

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
  for (const match of text.matchAll(TOKEN_PATTERN)) {
    const start = match.index;
    const cjkRun = match[1];
    if (cjkRun === undefined) {
      const word = match[0];
      occurrences.push({ term: normalizeWord(word), kind: 'word', start, end: start + word.length });
      continue;
    }
    const characters = Array.from(cjkRun);
    let offset = start;
    for (let index = 0; index < characters.length; index++) {
      const first = characters[index]!;
      const second = characters[index + 1];
      if (second !== undefined) {
        occurrences.push({
          term: normalizeCjk(first + second),
          kind: 'cjk',
          start: offset,
          end: offset + first.length + second.length,
        });
      } else {
        occurrences.push({
          term: normalizeCjk(first),
          kind: 'cjk',
          start: offset,
          end: offset + first.length,
        });
      }
      offset += first.length;
    }
  }
  return occurrences;
}

/** The distinct terms of `text`, in order of first appearance: what the index stores. */
export function searchTermsOf(text: string): string[] {
  const terms = new Set<string>();
  for (const occurrence of termOccurrences(text)) terms.add(occurrence.term);
  return [...terms];
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
