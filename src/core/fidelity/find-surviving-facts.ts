import {
  ASCII_SCAN_MIN_LENGTH,
  createAsciiWordScanner,
  type AsciiWordScanner,
} from '../tokens/scan-ascii-text.ts';
import type { Fact } from './fact.ts';
import {
  MATCH_SPACE,
  foldCode,
  matchCursor,
  readMatchCode,
  readMatchCodeBefore,
} from './normalize-match-text.ts';

/** The facts anchored on one word, and how many of them are not found yet. */
interface Anchor {
  /** Folded. */
  word: string;
  hash: number;
  needles: Needle[];
  live: number;
}

/** What one fact is looked up as, anchored on one of its words. */
interface Needle {
  /** The normalised text searched for. */
  text: string;
  /** Where the anchor starts and ends inside `text`. */
  anchorStart: number;
  anchorEnd: number;
  fact: number;
}

/** ASCII word characters (letters of either case, digits, `_`), by code. */
const WORD_CODES = new Uint8Array(128);
for (const character of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_') {
  WORD_CODES[character.charCodeAt(0)] = 1;
}
const BACKSLASH = 92;
/** Hashes kept to 30 bits stay small integers in V8: no allocation, fast set lookups. */
const SMALL_HASH = 0x3fffffff;
/** A bit per low 16 bits of an anchor hash: most words are ruled out before any map lookup. */
const HASH_FILTER_SIZE = 0x10000;
const HASH_FILTER_MASK = HASH_FILTER_SIZE - 1;

/**
 * Which facts appear in the visible texts, as whole words: a fact's text occurs in one of
 * `visibleTexts`, both normalised alike (`normalizeMatchText`), with no word character glued to
 * either end (`app/main.py` is not kept by `myapp/main.py`, `Error: x` is not kept by
 * `KeyError: x`). Word characters are ASCII letters, digits and `_`.
 *
 * A path survives when its last two segments do (`test/test_cache.py` keeps
 * `/Users/dain/proj/test/test_cache.py`, and a visible absolute path keeps a relative fact it
 * ends with); a one-segment name must appear itself.
 *
 * One pass over the visible text, whatever the number of facts, and no copy of it: each fact is
 * anchored on its longest word (or, with no ASCII word, on one non-ASCII character such as a
 * CJK ideograph or an emoji's first code unit); the text's words are folded and hashed as they
 * are read, and only where an anchor appears is the fact compared in full, folding as it goes.
 *
 * @returns one flag per fact, in the order given.
 * @example findSurvivingFacts(facts, collectVisibleTexts(compactedMessages))
 */
export function findSurvivingFacts(facts: readonly Fact[], visibleTexts: readonly string[]): boolean[] {
  const survived = facts.map(() => false);
  const anchors = new Map<number, Anchor[]>();
  const byWord = new Map<string, Anchor>();
  const unanchored: number[] = [];
  facts.forEach((fact, index) => {
    const text = survivalText(fact);
    const span = findAnchor(text);
    if (span === null) {
      unanchored.push(index);
      return;
    }
    const word = text.slice(span.start, span.end);
    const needle: Needle = { text, anchorStart: span.start, anchorEnd: span.end, fact: index };
    let anchor = byWord.get(word);
    if (anchor === undefined) {
      anchor = { word, hash: hashOf(word), needles: [], live: 0 };
      byWord.set(word, anchor);
      const sameHash = anchors.get(anchor.hash);
      if (sameHash) sameHash.push(anchor);
      else anchors.set(anchor.hash, [anchor]);
    }
    anchor.needles.push(needle);
    anchor.live += 1;
  });
  let pending = facts.length - unanchored.length;
  const filter = new Uint8Array(HASH_FILTER_SIZE);
  for (const hash of anchors.keys()) filter[hash & HASH_FILTER_MASK] = 1;
  const words = pending > 0 ? createAsciiWordScanner(filter) : null;
  for (const piece of visibleTexts) {
    if (pending === 0) break;
    pending -= scanPiece(piece, anchors, filter, survived, words);
  }
  // Facts of ASCII punctuation alone (`../..`, `??`): searched as written, since folding
  // changes no such character but `\` and whitespace, rather than normalising every text again.
  for (const index of unanchored) {
    const text = survivalText(facts[index]!);
    survived[index] = visibleTexts.some((piece) => piece.includes(text));
  }
  return survived;
}

/**
 * What survival looks for: a path's last two segments, anything else as it is.
 *
 * @example survivalText({ kind: 'path', text: '/users/dev/proj/src/app.ts', … }) // 'src/app.ts'
 */
export function survivalText(fact: Fact): string {
  if (fact.kind !== 'path') return fact.text;
  const last = fact.text.lastIndexOf('/');
  if (last <= 0) return fact.text;
  const previous = fact.text.lastIndexOf('/', last - 1);
  return previous === -1 ? fact.text : fact.text.slice(previous + 1);
}

/** A character outside ASCII, where a run the WebAssembly scanner can read ends. */
const NON_ASCII = /[^\x00-\x7f]/g;

/**
 * Reads one piece; returns how many facts it newly kept. An anchor whose facts are all found
 * is dropped, so a text that keeps everything is soon read with no lookups left but its hashes.
 * A long ASCII piece has its words hashed and filtered in WebAssembly (`words`); so do the long
 * ASCII runs of a piece with other characters (a dash, an emoji), between which those characters
 * are read here, as is everything else.
 */
function scanPiece(
  piece: string,
  anchors: Map<number, Anchor[]>,
  filter: Uint8Array,
  survived: boolean[],
  words: AsciiWordScanner | null,
): number {
  if (words === null || piece.length < ASCII_SCAN_MIN_LENGTH) {
    return scanRange(piece, 0, piece.length, anchors, filter, survived);
  }
  let kept = 0;
  const scanned = words.scan(piece, (start, end, hash) => {
    kept += keepAt(piece, start, end, hash, anchors, survived);
    return anchors.size === 0;
  });
  if (scanned) return kept;
  // A piece the scanner gave up on, part way or at once, is read again: facts already kept stay
  // kept and are not counted twice.
  return kept + scanRuns(piece, anchors, filter, survived, words);
}

/**
 * `scanRange` of the whole piece, its long ASCII runs read by the scanner. A word never spans a
 * character outside ASCII, and neither does an escape (the character after a backslash is
 * ASCII), so a run read alone gives the words the whole piece gives there.
 */
function scanRuns(
  piece: string,
  anchors: Map<number, Anchor[]>,
  filter: Uint8Array,
  survived: boolean[],
  words: AsciiWordScanner,
): number {
  let kept = 0;
  let runStart = 0;
  NON_ASCII.lastIndex = 0;
  for (;;) {
    const found = NON_ASCII.exec(piece);
    const runEnd = found === null ? piece.length : found.index;
    if (runEnd - runStart >= ASCII_SCAN_MIN_LENGTH) {
      const from = runStart;
      const scanned = words.scan(piece.slice(runStart, runEnd), (start, end, hash) => {
        kept += keepAt(piece, from + start, from + end, hash, anchors, survived);
        return anchors.size === 0;
      });
      if (!scanned) kept += scanRange(piece, runStart, runEnd, anchors, filter, survived);
    } else if (runEnd > runStart) {
      kept += scanRange(piece, runStart, runEnd, anchors, filter, survived);
    }
    if (found === null || anchors.size === 0) break;
    // The character itself, as `scanRange` reads one.
    kept += scanRange(piece, runEnd, runEnd + 1, anchors, filter, survived);
    runStart = runEnd + 1;
  }
  return kept;
}

/** Reads `piece[from, to)` character by character; returns how many facts it newly kept. */
function scanRange(
  piece: string,
  from: number,
  to: number,
  anchors: Map<number, Anchor[]>,
  filter: Uint8Array,
  survived: boolean[],
): number {
  let kept = 0;
  let index = from;
  while (index < to) {
    const start = index;
    let code = piece.charCodeAt(index);
    let hash: number;
    if (code < 128) {
      if (WORD_CODES[code] !== 1) {
        // `\n`, `\t`, `\r` are whitespace: the letter after the backslash starts no word.
        index += code === BACKSLASH ? escapeLength(piece, index) : 1;
        continue;
      }
      hash = 0;
      // Never read past the end: an out-of-bounds charCodeAt deoptimises this loop.
      for (;;) {
        hash = (Math.imul(hash, 31) + (code >= 65 && code <= 90 ? code + 32 : code)) & SMALL_HASH;
        if (++index >= to) break;
        code = piece.charCodeAt(index);
        if (code >= 128 || WORD_CODES[code] !== 1) break;
      }
    } else {
      index++;
      hash = foldCode(code);
      if (!isSymbolCode(hash)) continue;
    }
    if (filter[hash & HASH_FILTER_MASK] !== 1) continue;
    kept += keepAt(piece, start, index, hash, anchors, survived);
    if (anchors.size === 0) break;
  }
  return kept;
}

/** The facts anchored on the word `piece[start, end)` (of `hash`) that match there; how many were new. */
function keepAt(
  piece: string,
  start: number,
  end: number,
  hash: number,
  anchors: Map<number, Anchor[]>,
  survived: boolean[],
): number {
  const candidates = anchors.get(hash);
  if (candidates === undefined) return 0;
  let kept = 0;
  for (const anchor of candidates) {
    if (!equalsFolded(piece, start, end, anchor.word)) continue;
    for (const needle of anchor.needles) {
      if (survived[needle.fact] || !matchesAround(piece, start, end, needle)) continue;
      survived[needle.fact] = true;
      kept++;
      anchor.live -= 1;
    }
    if (anchor.live === 0) dropAnchor(anchors, anchor);
  }
  return kept;
}

function dropAnchor(anchors: Map<number, Anchor[]>, anchor: Anchor): void {
  const remaining = (anchors.get(anchor.hash) ?? []).filter((candidate) => candidate !== anchor);
  if (remaining.length === 0) anchors.delete(anchor.hash);
  else anchors.set(anchor.hash, remaining);
}

/** Whether `piece[start, end)` folds to `word`. */
function equalsFolded(piece: string, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  for (let offset = 0; offset < word.length; offset++) {
    if (foldCode(piece.charCodeAt(start + offset)) !== word.charCodeAt(offset)) return false;
  }
  return true;
}

/** How many characters a backslash at `index` takes: 2 for an escape read through, else 1. */
function escapeLength(piece: string, index: number): number {
  if (index + 1 >= piece.length) return 1;
  const next = piece.charCodeAt(index + 1);
  return next === 110 || next === 116 || next === 114 || next === 34 || next === 92 || next === 47 ? 2 : 1;
}

/**
 * Whether the needle, whose anchor sits at `[anchorStart, anchorEnd)` of the piece, matches
 * there in full: compared forwards after the anchor and backwards before it, logical character
 * by logical character (`readMatchCode`), a space in the needle standing for any run of
 * whitespace; then checked for word characters glued to either end.
 */
function matchesAround(piece: string, anchorStart: number, anchorEnd: number, needle: Needle): boolean {
  const { text } = needle;
  const length = piece.length;
  let position = anchorEnd;
  for (let at = needle.anchorEnd; at < text.length; at++) {
    if (position >= length) return false;
    const wanted = text.charCodeAt(at);
    let code = readMatchCode(piece, position);
    position = matchCursor;
    if (wanted === MATCH_SPACE) {
      if (code !== MATCH_SPACE) return false;
      while (position < length) {
        code = readMatchCode(piece, position);
        if (code !== MATCH_SPACE) break;
        position = matchCursor;
      }
    } else if (code !== wanted) return false;
  }
  const end = position;
  position = anchorStart;
  for (let at = needle.anchorStart - 1; at >= 0; at--) {
    if (position <= 0) return false;
    const wanted = text.charCodeAt(at);
    let code = readMatchCodeBefore(piece, position);
    position = matchCursor;
    if (wanted === MATCH_SPACE) {
      if (code !== MATCH_SPACE) return false;
      while (position > 0) {
        code = readMatchCodeBefore(piece, position);
        if (code !== MATCH_SPACE) break;
        position = matchCursor;
      }
    } else if (code !== wanted) return false;
  }
  if (position > 0 && isWordCode(text.charCodeAt(0)) && isWordCode(readMatchCodeBefore(piece, position))) {
    return false;
  }
  return !(
    end < length &&
    isWordCode(text.charCodeAt(text.length - 1)) &&
    isWordCode(readMatchCode(piece, end))
  );
}

/** Word characters of folded text: a-z, 0-9, _. */
const isWordCode = (code: number): boolean =>
  (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 95;

/**
 * A folded non-ASCII code unit that can anchor a fact on its own (a CJK ideograph, an accented
 * letter, half of an emoji): not in the punctuation and symbol blocks (whitespace is already
 * folded to a space).
 */
const isSymbolCode = (code: number): boolean =>
  code >= 128 &&
  !(code >= 0x2000 && code <= 0x2bff) &&
  !(code >= 0x3000 && code <= 0x303f) &&
  !(code >= 0xfe30 && code <= 0xfe4f) &&
  !(code >= 0xff00 && code <= 0xff20);

/** The longest ASCII word of `text`, else its first symbol character; null for punctuation alone. */
function findAnchor(text: string): { start: number; end: number } | null {
  let best: { start: number; end: number } | null = null;
  let symbol: { start: number; end: number } | null = null;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (!isWordCode(code)) {
      if (symbol === null && isSymbolCode(code)) symbol = { start: index, end: index + 1 };
      index++;
      continue;
    }
    const start = index;
    while (index < text.length && isWordCode(text.charCodeAt(index))) index++;
    if (best === null || index - start > best.end - best.start) best = { start, end: index };
  }
  return best ?? symbol;
}

function hashOf(word: string): number {
  if (word.length === 1 && word.charCodeAt(0) >= 128) return word.charCodeAt(0);
  let hash = 0;
  for (let index = 0; index < word.length; index++) {
    hash = (Math.imul(hash, 31) + word.charCodeAt(index)) & SMALL_HASH;
  }
  return hash;
}
