/**
 * Python `len()` and slicing count Unicode code points; JS strings are UTF-16 units.
 * The two only differ when a string holds surrogates, which V8 can rule out in O(1) for
 * one-byte (Latin-1) strings, so the common case costs nothing.
 */
const SURROGATE = /[\uD800-\uDFFF]/;

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

export const hasSurrogates = (text: string): boolean => SURROGATE.test(text);

/** A high surrogate right before a low one: pairs never overlap, so a global scan finds each. */
const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/**
 * Python `len(text)`: a valid surrogate pair is one code point, a lone surrogate is one too. The
 * pairs are counted by the regex engine, which skips everything else (and a one-byte string at
 * once), at about half the cost of testing each unit in a loop.
 */
export function pythonLength(text: string): number {
  let pairs = 0;
  SURROGATE_PAIR.lastIndex = 0;
  while (SURROGATE_PAIR.test(text)) pairs++;
  return text.length - pairs;
}

/**
 * `pythonLength(text) > limit`, deciding from the UTF-16 length alone when it can (a code point
 * is one or two units), so long texts with non-ASCII characters are not scanned for surrogates.
 */
export function pythonLengthExceeds(text: string, limit: number): boolean {
  if (text.length <= limit) return false;
  if (text.length > 2 * limit) return true;
  return pythonLength(text) > limit;
}

/** UTF-16 offset of the code point with the given index (clamped to the string). */
function unitOffset(text: string, codePointIndex: number): number {
  let units = 0;
  for (let points = 0; points < codePointIndex && units < text.length; points++) {
    const pair = isHighSurrogate(text.charCodeAt(units)) && isLowSurrogate(text.charCodeAt(units + 1));
    units += pair ? 2 : 1;
  }
  return units;
}

/**
 * UTF-16 offset of the code point `count` code points before the end (clamped to the start).
 * A pair is a high surrogate right before a low one wherever it stands, so counting back from the
 * end pairs the same units as counting forward from the start.
 */
function unitOffsetFromEnd(text: string, count: number): number {
  let units = text.length;
  for (let points = 0; points < count && units > 0; points++) {
    // Before the start, charCodeAt gives NaN: no surrogate, as past the end in `unitOffset`.
    const pair = isLowSurrogate(text.charCodeAt(units - 1)) && isHighSurrogate(text.charCodeAt(units - 2));
    units -= pair ? 2 : 1;
  }
  return units;
}

/**
 * Python `text[start:end]` in code points, negative indices counted from the end as in Python.
 *
 * A head (`[:n]`) or a tail (`[-n:]`), what the serialiser and the digests cut, is decided from
 * its own units: with no surrogate among the first (last) n units, they are the first (last) n
 * code points. A long text with any character outside Latin-1 is stored two-byte, and a surrogate
 * test of the whole of it (~0.4 ns a unit) then cost more than the cut; a head or tail with
 * surrogates is found by walking n code points in from its end of the text, never the whole text.
 */
export function pythonSlice(text: string, start: number, end?: number): string {
  if (start === 0 && end !== undefined && end >= 0) {
    const head = text.slice(0, end);
    return SURROGATE.test(head) ? text.slice(0, unitOffset(text, end)) : head;
  }
  if (start < 0 && end === undefined) {
    const tail = text.slice(start);
    return SURROGATE.test(tail) ? text.slice(unitOffsetFromEnd(text, -start)) : tail;
  }
  if (!SURROGATE.test(text)) return text.slice(start, end);
  const length = pythonLength(text);
  const from = clampIndex(start, length);
  const to = end === undefined ? length : clampIndex(end, length);
  if (to <= from) return '';
  return text.slice(unitOffset(text, from), unitOffset(text, to));
}

function clampIndex(index: number, length: number): number {
  if (index < 0) return Math.max(0, length + index);
  return Math.min(index, length);
}

/** The code points of a string, as Python iterates it (`list(text)`). */
export function pythonCharacters(text: string): string[] {
  return Array.from(text);
}
