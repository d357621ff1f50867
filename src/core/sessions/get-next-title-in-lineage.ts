/**
 * The title for the next session of a lineage (`SessionDB.get_next_title_in_lineage`,
 * hermes-reference §11; the same in both generations), given every title already stored:
 *
 * 1. The base is the title without a trailing ` #N` (`"Fix tests #3"` → `"Fix tests"`).
 * 2. The titles in the way are the base itself and every title the SQL pattern `base #%`
 *    matches, with SQLite's LIKE semantics: ASCII letters compare case-insensitively, and
 *    anything may follow `#` (`"Fix tests #draft"` is in the way too).
 * 3. None in the way: the base. Otherwise `base #<max(1, every trailing number) + 1>`, so the
 *    second session is `#2` and after `#2` and `#7` comes `#8`; gaps are never filled.
 *
 * Numbers are Python's `\d+` (any Unicode decimal digits) and `int()` (no size limit).
 */
export function getNextTitleInLineage(title: string, existingTitles: Iterable<string | null>): string {
  const base = NUMBERED_TITLE.exec(title)?.[1] ?? title;
  const pattern = `${base} #`;
  let inTheWay = false;
  let highest = 1n;
  for (const existing of existingTitles) {
    if (existing === null) continue;
    if (existing !== base && !startsWithIgnoringAsciiCase(existing, pattern)) continue;
    inTheWay = true;
    const number = TRAILING_NUMBER.exec(existing)?.[1];
    if (number !== undefined) {
      const value = decimalValue(number);
      if (value > highest) highest = value;
    }
  }
  return inTheWay ? `${base} #${highest + 1n}` : base;
}

/**
 * `re.match(r'^(.*?) #(\d+)$', title)`: `.` stops at a newline and `$` also matches before a
 * final newline, as in Python.
 */
const NUMBERED_TITLE = /^([^\n]*?) #(\p{Nd}+)\n?$/u;
/** `re.match(r"^.* #(\d+)$", title)`: the last ` #digits` at the end. */
const TRAILING_NUMBER = /^[^\n]* #(\p{Nd}+)\n?$/u;
const DECIMAL_DIGIT = /^\p{Nd}$/u;

/** SQLite `LIKE 'prefix%'`: only ASCII letters fold case. */
function startsWithIgnoringAsciiCase(text: string, prefix: string): boolean {
  if (text.length < prefix.length) return false;
  for (let index = 0; index < prefix.length; index++) {
    if (asciiLower(text.charCodeAt(index)) !== asciiLower(prefix.charCodeAt(index))) return false;
  }
  return true;
}

const asciiLower = (code: number): number => (code >= 65 && code <= 90 ? code + 32 : code);

/** Python `int()` of a run of Unicode decimal digits. */
function decimalValue(digits: string): bigint {
  let value = 0n;
  for (const digit of digits) value = value * 10n + BigInt(digitValue(digit));
  return value;
}

/**
 * The value of one decimal digit of any script. Unicode lays every script's digits out as
 * consecutive runs starting at its zero, so the value is the distance from the start of the
 * run, modulo 10 (a few runs hold several styles of 0–9 back to back).
 */
function digitValue(digit: string): number {
  let codePoint = digit.codePointAt(0)!;
  let offset = 0;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(codePoint - 1))) {
    codePoint--;
    offset++;
  }
  return offset % 10;
}
