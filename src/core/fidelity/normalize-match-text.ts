/**
 * The one normalisation both sides of a survival check go through, facts and the text the model
 * sees. It is defined on "logical characters" read one at a time (`readMatchCode`), so the
 * survival scan applies it on the fly to megabytes of text without copying them:
 *
 * - lower case: a summary that restyles `ValueError` as `valueerror` in a heading still carries
 *   it. Case is folded for every kind: paths and identifiers are case-sensitive in principle,
 *   but the question is whether the information is still in front of the model, and a false
 *   "lost" for a re-capitalised name is worse than the rare false "survived" of two names that
 *   differ only in case;
 * - JSON string escapes read through: `\n`, `\t`, `\r` are whitespace and `\"`, `\\`, `\/` the
 *   character they stand for, because tool results are often JSON (Hermes' `{"output": "…"}`)
 *   and a fact read from their decoded lines must be found in them;
 * - any other backslash as a slash (Windows paths), typographic quotes as ASCII ones;
 * - every run of whitespace as one space.
 */
import { isRegexWhitespace } from '../shared/is-regex-whitespace.ts';

/** A logical whitespace character (a run of them reads as one space). */
export const MATCH_SPACE = 32;

/** ASCII code → folded code (upper case lowered, `\` → `/`). */
const ASCII_FOLD = new Uint8Array(128);
for (let code = 0; code < 128; code++) ASCII_FOLD[code] = code >= 65 && code <= 90 ? code + 32 : code;
ASCII_FOLD[92] = 47;

/** Characters that follow a backslash in an escape read through: n t r " \ /. */
const ESCAPED = new Uint8Array(128);
for (const character of 'ntr"\\/') ESCAPED[character.charCodeAt(0)] = 1;

const nonAsciiFolds = new Map<number, number>();

/**
 * Where the last `readMatchCode` or `readMatchCodeBefore` left off (a position in the text).
 * A module-level cursor instead of a returned pair keeps the survival scan free of allocations.
 */
export let matchCursor = 0;

/**
 * The logical character at `position`, folded, with `matchCursor` set after it: `MATCH_SPACE`
 * for any whitespace (and `\n`, `\t`, `\r` escapes).
 */
export function readMatchCode(text: string, position: number): number {
  const code = text.charCodeAt(position);
  if (code === 92 && position + 1 < text.length) {
    const next = text.charCodeAt(position + 1);
    if (next < 128 && ESCAPED[next] === 1) {
      matchCursor = position + 2;
      return next === 110 || next === 116 || next === 114 ? MATCH_SPACE : ASCII_FOLD[next]!;
    }
  }
  matchCursor = position + 1;
  return foldCode(code);
}

/** The logical character that ends just before `position`, with `matchCursor` set at its start. */
export function readMatchCodeBefore(text: string, position: number): number {
  const code = text.charCodeAt(position - 1);
  if (code < 128 && ESCAPED[code] === 1 && position >= 2 && text.charCodeAt(position - 2) === 92) {
    matchCursor = position - 2;
    return code === 110 || code === 116 || code === 114 ? MATCH_SPACE : ASCII_FOLD[code]!;
  }
  matchCursor = position - 1;
  return foldCode(code);
}

/** One code unit folded: ASCII by table, typographic quotes to ASCII, whitespace to a space. */
export function foldCode(code: number): number {
  if (code < 128) return code <= 32 && isRegexWhitespace(code) ? MATCH_SPACE : ASCII_FOLD[code]!;
  if (isRegexWhitespace(code)) return MATCH_SPACE;
  if (code === 0x2018 || code === 0x2019) return 39;
  if (code === 0x201c || code === 0x201d) return 34;
  let folded = nonAsciiFolds.get(code);
  if (folded === undefined) {
    const lower = String.fromCharCode(code).toLowerCase();
    // Never fold into ASCII (the Kelvin sign into `k`): ASCII letters alone make words.
    folded = lower.length === 1 && lower.charCodeAt(0) >= 128 ? lower.charCodeAt(0) : code;
    nonAsciiFolds.set(code, folded);
  }
  return folded;
}

/** Printable ASCII without backslashes: folding is then `toLowerCase` and collapsing spaces. */
const PLAIN_ASCII = /^[\x20-\x5b\x5d-\x7e]*$/;

/**
 * `text` normalised for matching (not trimmed).
 *
 * @example normalizeMatchText('Fixed\tC:\\src\\App.ts') // 'fixed c:/src/app.ts'
 */
export function normalizeMatchText(text: string): string {
  if (PLAIN_ASCII.test(text)) return text.toLowerCase().replace(/ {2,}/g, ' ');
  const codes: number[] = [];
  let result = '';
  let position = 0;
  let afterSpace = false;
  while (position < text.length) {
    const code = readMatchCode(text, position);
    position = matchCursor;
    if (code === MATCH_SPACE && afterSpace) continue;
    afterSpace = code === MATCH_SPACE;
    codes.push(code);
    if (codes.length >= 4_096) {
      result += String.fromCharCode(...codes);
      codes.length = 0;
    }
  }
  return result + String.fromCharCode(...codes);
}

/**
 * Characters that make up a word for whole-word matching: ASCII letters, digits and `_` (upper
 * case too, for callers that test text before folding). Everything else (punctuation, `/`,
 * non-ASCII letters) is a boundary, so a fact in CJK text matches as a plain substring.
 */
export function isMatchWordCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 95 || (code >= 65 && code <= 90)
  );
}
