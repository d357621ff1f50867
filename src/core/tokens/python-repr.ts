import { PythonFloat, pythonFloatRepr, pythonIntRepr } from './python-float.ts';
import { ASCII_SCAN_MIN_LENGTH, asciiReprLength } from './scan-ascii-text.ts';

export { pythonLength, pythonSlice } from './python-length.ts';

/**
 * Python `repr()` / `str()` of JSON-like values, and the length of that text, without
 * building it. Hermes sizes messages as `len(str(message_dict))`, so these lengths decide
 * token estimates and compression boundaries.
 *
 * Values: `null`/`undefined` → `None`, booleans → `True`/`False`, integral numbers → ints,
 * other numbers and `PythonFloat` → float repr, bigint → int, arrays → lists, plain objects
 * and `Map`s → dicts (object keys whose value is `undefined` are treated as absent, as
 * JSON.stringify does). Strings follow CPython's `unicode_repr`.
 */

/** Printable ASCII other than `'` and `\`: these strings need no escaping at all. */
const NEEDS_CHARACTER_SCAN = /[^\x20-\x26\x28-\x5b\x5d-\x7e]/;

function countOccurrences(text: string, character: string): number {
  let count = 0;
  for (let index = text.indexOf(character); index !== -1; index = text.indexOf(character, index + 1)) count++;
  return count;
}

/** Python `str.isprintable()` is false for these categories (the space itself is printable). */
const NON_PRINTABLE = /[\p{C}\p{Z}]/u;

const SINGLE_QUOTE = 0x27;
const BACKSLASH = 0x5c;

/** Per BMP code unit: 0 = not classified yet, else 1 + the extra characters its repr needs. */
const bmpExtraPlusOne = new Uint8Array(0x10000);

function isPrintable(character: string): boolean {
  return character === ' ' || !NON_PRINTABLE.test(character);
}

/** Extra characters (beyond 1) that repr needs for a non-ASCII BMP code unit. */
function nonAsciiExtra(unit: number): number {
  let cached = bmpExtraPlusOne[unit]!;
  if (cached === 0) {
    // \xNN for Latin-1, \uNNNN above; lone surrogates are never printable.
    const extra = isPrintable(String.fromCharCode(unit)) ? 0 : unit <= 0xff ? 3 : 5;
    cached = extra + 1;
    bmpExtraPlusOne[unit] = cached;
  }
  return cached - 1;
}

const isHighSurrogate = (unit: number): boolean => unit >= 0xd800 && unit <= 0xdbff;
const isLowSurrogate = (unit: number): boolean => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * What the native counting passes leave: controls other than tab, newline and carriage return,
 * DEL, and every character outside ASCII. In a session's text these are a dash or an emoji here
 * and there, so a global scan stops rarely.
 */
const OTHER_ESCAPES = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\uffff]/g;

/**
 * Length in code points of Python `repr(text)`. Linear. Long ASCII text is counted in
 * WebAssembly (`asciiReprLength`); any other text by native passes: `indexOf` counts of the
 * common escapes and quotes, then a regex scan that stops only at the rest (about 2.3× faster
 * than reading every character in a loop on a session whose every text has a dash and an emoji).
 */
export function pythonStringReprLength(text: string): number {
  const length = text.length;
  if (!NEEDS_CHARACTER_SCAN.test(text)) return length + 2;
  if (length >= ASCII_SCAN_MIN_LENGTH) {
    const scanned = asciiReprLength(text);
    if (scanned !== null) return scanned;
  }
  const singleQuotes = countOccurrences(text, "'");
  let extra =
    countOccurrences(text, '\\') +
    countOccurrences(text, '\n') +
    countOccurrences(text, '\r') +
    countOccurrences(text, '\t');
  OTHER_ESCAPES.lastIndex = 0;
  for (let found = OTHER_ESCAPES.exec(text); found !== null; found = OTHER_ESCAPES.exec(text)) {
    const index = found.index;
    const unit = text.charCodeAt(index);
    if (unit < 0x80) {
      // Another control character or DEL: \xNN.
      extra += 3;
    } else if (isHighSurrogate(unit) && isLowSurrogate(text.charCodeAt(index + 1))) {
      // One code point in two units: printable → 1 character, else \UXXXXXXXX (10).
      extra += isPrintable(text.slice(index, index + 2)) ? -1 : 8;
      OTHER_ESCAPES.lastIndex = index + 2;
    } else {
      extra += nonAsciiExtra(unit);
    }
  }
  // repr picks "…" only when the text has ' and no "; otherwise every ' is escaped.
  const quoteEscapes = singleQuotes > 0 && !text.includes('"') ? 0 : singleQuotes;
  return length + 2 + extra + quoteEscapes;
}

const hex = (value: number, width: number): string => value.toString(16).padStart(width, '0');

/** Python `repr(text)`: CPython's quoting and escaping rules. */
export function pythonStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  if (!NEEDS_CHARACTER_SCAN.test(text)) return quote + text + quote;
  let out = quote;
  let runStart = 0;
  const flush = (end: number): void => {
    if (end > runStart) out += text.slice(runStart, end);
  };
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    let escaped: string | null = null;
    let width = 1;
    if (unit >= 0x20 && unit < 0x7f) {
      if (unit === BACKSLASH) escaped = '\\\\';
      else if (unit === SINGLE_QUOTE && quote === "'") escaped = "\\'";
    } else if (unit < 0x80) {
      escaped = unit === 0x09 ? '\\t' : unit === 0x0a ? '\\n' : unit === 0x0d ? '\\r' : `\\x${hex(unit, 2)}`;
    } else if (
      isHighSurrogate(unit) &&
      index + 1 < text.length &&
      isLowSurrogate(text.charCodeAt(index + 1))
    ) {
      width = 2;
      const character = text.slice(index, index + 2);
      if (!isPrintable(character)) escaped = `\\U${hex(character.codePointAt(0)!, 8)}`;
    } else if (nonAsciiExtra(unit) > 0) {
      escaped = unit <= 0xff ? `\\x${hex(unit, 2)}` : `\\u${hex(unit, 4)}`;
    }
    if (escaped !== null) {
      flush(index);
      out += escaped;
      runStart = index + width;
    }
    if (width === 2) index++;
  }
  flush(text.length);
  return out + quote;
}

function numberRepr(value: number): string {
  return Number.isInteger(value) ? pythonIntRepr(value) : pythonFloatRepr(value);
}

function definedEntries(record: Record<string, unknown>): [string, unknown][] {
  const entries: [string, unknown][] = [];
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (value !== undefined) entries.push([key, value]);
  }
  return entries;
}

function entriesOf(value: object): [unknown, unknown][] | null {
  if (value instanceof Map) return [...value.entries()];
  if (Array.isArray(value) || value instanceof PythonFloat) return null;
  return definedEntries(value as Record<string, unknown>);
}

/** Python `repr(value)`. */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  switch (typeof value) {
    case 'string':
      return pythonStringRepr(value);
    case 'boolean':
      return value ? 'True' : 'False';
    case 'number':
      return numberRepr(value);
    case 'bigint':
      return value.toString();
    case 'object': {
      if (value instanceof PythonFloat) return pythonFloatRepr(value.value);
      if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
      const entries = entriesOf(value) ?? [];
      return `{${entries.map(([key, item]) => `${pythonRepr(key)}: ${pythonRepr(item)}`).join(', ')}}`;
    }
    default:
      // Only a symbol or a function is left; TypeScript can only call it `{}`.
      // eslint-disable-next-line @typescript-eslint/no-base-to-string
      return String(value);
  }
}

/** Python `str(value)`: like repr, except that a string is itself. */
export function pythonStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}

/** '{' + '}', ', ' between entries and ': ' inside each, around the keys' and values' own reprs. */
const dictFraming = (entries: number): number => 2 + Math.max(0, entries - 1) * 2 + entries * 2;

function mapReprLength(map: Map<unknown, unknown>): number {
  let total = dictFraming(map.size);
  for (const [key, item] of map) total += pythonReprLength(key) + pythonReprLength(item);
  return total;
}

/**
 * A plain object's dict repr length, walking its keys in place: messages are measured by the
 * thousand, and building an entry list for each (as `pythonRepr` does) was a tenth of the cost.
 */
function recordReprLength(record: Record<string, unknown>): number {
  let total = 0;
  let entries = 0;
  const keys = Object.keys(record);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    const item = record[key];
    if (item === undefined) continue;
    total += pythonStringReprLength(key) + pythonReprLength(item);
    entries++;
  }
  return total + dictFraming(entries);
}

/** `len(repr(value))` in code points, computed without building the text. */
export function pythonReprLength(value: unknown): number {
  if (value === null || value === undefined) return 4;
  switch (typeof value) {
    case 'string':
      return pythonStringReprLength(value);
    case 'boolean':
      return value ? 4 : 5;
    case 'number':
      return numberRepr(value).length;
    case 'bigint':
      return value.toString().length;
    case 'object': {
      if (value instanceof PythonFloat) return pythonFloatRepr(value.value).length;
      if (Array.isArray(value)) {
        let total = 2 + Math.max(0, value.length - 1) * 2;
        for (let i = 0; i < value.length; i++) total += pythonReprLength(value[i]);
        return total;
      }
      if (value instanceof Map) return mapReprLength(value);
      return recordReprLength(value as Record<string, unknown>);
    }
    default:
      // Only a symbol or a function is left; TypeScript can only call it `{}`.
      // eslint-disable-next-line @typescript-eslint/no-base-to-string
      return String(value).length;
  }
}
