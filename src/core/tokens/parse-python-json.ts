import { err, ok, type Result } from '../shared/result.ts';
import { safeParseJson, type JsonParseError } from '../shared/safe-parse-json.ts';
import { PythonFloat } from './python-float.ts';

/**
 * A JSON value as Python's `json.loads` sees it: objects keep their key order (JS objects
 * hoist integer-like keys such as `"2"` to the front), duplicate keys keep the first position
 * with the last value, floats stay floats (`PythonFloat`), and integers beyond 2^53 stay exact
 * (`bigint`). Needed wherever Hermes re-serialises or prints parsed tool arguments.
 */
export type PythonJsonValue =
  null | boolean | number | bigint | string | PythonFloat | PythonJsonValue[] | PythonJsonDict;

export type PythonJsonDict = Map<string, PythonJsonValue>;

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;
/** What a JSON string's body needs decoding (or rejecting) for. */
const ESCAPE_OR_CONTROL = /[\\\x00-\x1f]/;
/** Far beyond any real arguments blob; keeps hostile input from exhausting the stack. */
const MAX_NESTING_DEPTH = 5000;

class Parser {
  readonly text: string;
  position = 0;

  constructor(text: string) {
    this.text = text;
  }

  skipWhitespace(): void {
    WHITESPACE.lastIndex = this.position;
    WHITESPACE.exec(this.text);
    this.position = WHITESPACE.lastIndex;
  }

  fail(message: string): JsonParseError {
    return { type: 'JsonParseError', message: `${message} at position ${this.position}` };
  }

  value(depth: number): Result<PythonJsonValue, JsonParseError> {
    if (depth > MAX_NESTING_DEPTH) return err(this.fail('Nesting too deep'));
    const text = this.text;
    const character = text[this.position];
    if (character === '"') return this.string();
    if (character === '{') return this.object(depth);
    if (character === '[') return this.array(depth);
    if (text.startsWith('null', this.position)) return this.literal(4, null);
    if (text.startsWith('true', this.position)) return this.literal(4, true);
    if (text.startsWith('false', this.position)) return this.literal(5, false);
    NUMBER.lastIndex = this.position;
    const match = NUMBER.exec(text);
    if (match) {
      this.position = NUMBER.lastIndex;
      return ok(numberValue(match[0], match[1] !== undefined || match[2] !== undefined));
    }
    // Python accepts these non-standard constants.
    if (text.startsWith('NaN', this.position)) return this.literal(3, new PythonFloat(NaN));
    if (text.startsWith('Infinity', this.position)) return this.literal(8, new PythonFloat(Infinity));
    if (text.startsWith('-Infinity', this.position)) return this.literal(9, new PythonFloat(-Infinity));
    return err(this.fail('Expecting value'));
  }

  literal(length: number, value: PythonJsonValue): Result<PythonJsonValue, JsonParseError> {
    this.position += length;
    return ok(value);
  }

  string(): Result<string, JsonParseError> {
    const text = this.text;
    const start = this.position;
    let end = start + 1;
    for (;;) {
      end = text.indexOf('"', end);
      if (end === -1) return err(this.fail('Unterminated string'));
      let backslashes = 0;
      while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
      if (backslashes % 2 === 0) break;
      end++;
    }
    // Without escapes or control characters the text between the quotes is the string itself;
    // otherwise the native parser decodes escapes and rejects raw control characters, like
    // Python's strict mode.
    const raw = text.slice(start + 1, end);
    if (!ESCAPE_OR_CONTROL.test(raw)) {
      this.position = end + 1;
      return ok(raw);
    }
    const decoded = safeParseJson(text.slice(start, end + 1));
    if (!decoded.ok) return err(this.fail('Invalid string'));
    this.position = end + 1;
    return ok(decoded.value as string);
  }

  array(depth: number): Result<PythonJsonValue[], JsonParseError> {
    const items: PythonJsonValue[] = [];
    this.position++;
    this.skipWhitespace();
    if (this.text[this.position] === ']') {
      this.position++;
      return ok(items);
    }
    for (;;) {
      this.skipWhitespace();
      const item = this.value(depth + 1);
      if (!item.ok) return item;
      items.push(item.value);
      this.skipWhitespace();
      const separator = this.text[this.position++];
      if (separator === ']') return ok(items);
      if (separator !== ',') return err(this.fail("Expecting ',' delimiter"));
    }
  }

  object(depth: number): Result<PythonJsonDict, JsonParseError> {
    const dict: PythonJsonDict = new Map();
    this.position++;
    this.skipWhitespace();
    if (this.text[this.position] === '}') {
      this.position++;
      return ok(dict);
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.position] !== '"') return err(this.fail('Expecting property name'));
      const key = this.string();
      if (!key.ok) return key;
      this.skipWhitespace();
      if (this.text[this.position++] !== ':') return err(this.fail("Expecting ':' delimiter"));
      this.skipWhitespace();
      const item = this.value(depth + 1);
      if (!item.ok) return item;
      dict.set(key.value, item.value);
      this.skipWhitespace();
      const separator = this.text[this.position++];
      if (separator === '}') return ok(dict);
      if (separator !== ',') return err(this.fail("Expecting ',' delimiter"));
    }
  }
}

function numberValue(token: string, isFloat: boolean): PythonJsonValue {
  if (isFloat) return new PythonFloat(Number(token));
  const value = Number(token);
  return Number.isSafeInteger(value) ? value : BigInt(token);
}

/** Python `json.loads(text)` (strict mode); a failure is what Python raises as JSONDecodeError. */
export function parsePythonJson(text: string): Result<PythonJsonValue, JsonParseError> {
  const parser = new Parser(text);
  parser.skipWhitespace();
  const value = parser.value(0);
  if (!value.ok) return value;
  parser.skipWhitespace();
  if (parser.position !== text.length) return err(parser.fail('Extra data'));
  return value;
}

export const isPythonJsonDict = (value: unknown): value is PythonJsonDict => value instanceof Map;
