/**
 * Python `len()` and slicing count Unicode code points; JS strings are UTF-16 units.
 * The two only differ when a string holds surrogates, which V8 can rule out in O(1) for
 * one-byte (Latin-1) strings, so the common case costs nothing.
 */
const SURROGATE = /[\uD800-\uDFFF]/;

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

export const hasSurrogates = (text: string): boolean => SURROGATE.test(text);

/** Python `len(text)`: a valid surrogate pair is one code point, a lone surrogate is one too. */
export function pythonLength(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let pairs = 0;
  for (let index = 0; index < text.length - 1; index++) {
    if (isHighSurrogate(text.charCodeAt(index)) && isLowSurrogate(text.charCodeAt(index + 1))) {
      pairs++;
      index++;
    }
  }
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

/** Python `text[start:end]` in code points, negative indices counted from the end as in Python. */
export function pythonSlice(text: string, start: number, end?: number): string {
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
