/**
 * Python whitespace semantics the compressor's text handling depends on: Hermes strips and
 * splits on `str.isspace()` characters, which differ from JavaScript's `\s` (Python adds
 * \x1c-\x1f and \x85, JavaScript adds \ufeff). Lengths and slices are in
 * `../tokens/python-length.ts`. These run once per message on large transcripts, so they
 * scan by character code instead of using anchored regexes.
 */

const WHITESPACE_CLASS =
  '\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/** A regex source for one Python whitespace character (`\s` in a `str` pattern). */
export const PYTHON_WHITESPACE = `[${WHITESPACE_CLASS}]`;

const WHITESPACE_RUNS = new RegExp(`${PYTHON_WHITESPACE}+`, 'g');
/** Anything `collapseWhitespace` would change inside a stripped string: a non-space or a double space. */
const NEEDS_COLLAPSE = new RegExp(`[${WHITESPACE_CLASS.replace(' ', '')}]| {2}`);

/** `str.isspace()` for one UTF-16 code unit (all Python whitespace is in the BMP). */
export function isPythonWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

export function pythonLStrip(text: string): string {
  let start = 0;
  while (start < text.length && isPythonWhitespace(text.charCodeAt(start))) start++;
  return start === 0 ? text : text.slice(start);
}

export function pythonRStrip(text: string): string {
  let end = text.length;
  while (end > 0 && isPythonWhitespace(text.charCodeAt(end - 1))) end--;
  return end === text.length ? text : text.slice(0, end);
}

export const pythonStrip = (text: string): string => pythonRStrip(pythonLStrip(text));

/** `" ".join(text.split())` and `re.sub(r"\s+", " ", text).strip()`: runs of whitespace become one space. */
export function collapseWhitespace(text: string): string {
  const stripped = pythonStrip(text);
  return NEEDS_COLLAPSE.test(stripped) ? stripped.replace(WHITESPACE_RUNS, ' ') : stripped;
}

/** `re.sub(r"\s+", " ", text)` without the strip. */
export const replaceWhitespaceRuns = (text: string): string =>
  NEEDS_COLLAPSE.test(text) ? text.replace(WHITESPACE_RUNS, ' ') : text;
