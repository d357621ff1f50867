import { PythonFloat } from './python-float.ts';

/** Python truthiness of a JSON-like value: empty strings, containers, 0 and None are false. */
export function pythonTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (typeof value === 'string') return value.length > 0;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'bigint') return value !== 0n;
  if (value instanceof PythonFloat) return value.value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof Map) return value.size > 0;
  if (typeof value === 'object') return Object.values(value).some((item) => item !== undefined);
  return true;
}

/** Python `str.isspace()` characters: unlike JS `\s`, includes \x1c-\x1f and \x85 but not \ufeff. */
const PYTHON_NON_WHITESPACE =
  /[^\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

/** Python `bool(text.strip())`: the text has at least one non-whitespace character. */
export const pythonHasNonWhitespace = (text: string): boolean => PYTHON_NON_WHITESPACE.test(text);
