import { err, ok, type Result } from '../shared/result.ts';
import type { JsonParseError } from '../shared/safe-parse-json.ts';

/**
 * JSON as Python's `json` module sees it, for output that must match `json.dumps(...,
 * ensure_ascii=False)` byte for byte: key order and duplicate keys as a `dict` keeps them (first
 * position, last value — JS objects would move integer-like keys first), and ints apart from
 * floats (`1.0` stays `1.0`).
 */
export type PythonJsonNode =
  | { kind: 'object'; entries: Array<[string, PythonJsonNode]> }
  | { kind: 'array'; items: PythonJsonNode[] }
  | { kind: 'string'; value: string }
  | { kind: 'int'; digits: string }
  | { kind: 'float'; value: number }
  | { kind: 'bool'; value: boolean }
  | { kind: 'null' };

/** `json.loads`: strict JSON plus `NaN`, `Infinity` and `-Infinity`. */
export function parsePythonJson(text: string): Result<PythonJsonNode, JsonParseError> {
  const parser = { text, position: 0 };
  try {
    skipWhitespace(parser);
    const node = parseValue(parser);
    skipWhitespace(parser);
    if (parser.position !== text.length) throw new SyntaxError(`Extra data at position ${parser.position}`);
    return ok(node);
  } catch (error) {
    return err({ type: 'JsonParseError', message: error instanceof Error ? error.message : String(error) });
  }
}

/** A plain JS value as the node `json.dumps` would see (integral numbers become ints). */
export function toPythonJsonNode(value: unknown): PythonJsonNode {
  if (value === null || value === undefined) return { kind: 'null' };
  if (typeof value === 'string') return { kind: 'string', value };
  if (typeof value === 'boolean') return { kind: 'bool', value };
  if (typeof value === 'number') {
    return Number.isInteger(value) && Math.abs(value) < 2 ** 53
      ? { kind: 'int', digits: String(value === 0 ? 0 : value) }
      : { kind: 'float', value };
  }
  if (Array.isArray(value)) return { kind: 'array', items: value.map(toPythonJsonNode) };
  if (typeof value === 'object') {
    return {
      kind: 'object',
      entries: Object.entries(value).map(([key, entry]) => [key, toPythonJsonNode(entry)]),
    };
  }
  // Only a bigint, a symbol or a function is left; TypeScript can only call it `{}`.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  return { kind: 'string', value: String(value) };
}

/** `json.dumps(node, ensure_ascii=False)`: `", "` and `": "` separators, non-ASCII kept. */
export function dumpsPythonJson(node: PythonJsonNode): string {
  switch (node.kind) {
    case 'null':
      return 'null';
    case 'bool':
      return node.value ? 'true' : 'false';
    case 'int':
      return node.digits;
    case 'float':
      return pythonFloatRepr(node.value);
    case 'string':
      return quotePythonJsonString(node.value);
    case 'array':
      return `[${node.items.map(dumpsPythonJson).join(', ')}]`;
    case 'object':
      return `{${node.entries.map(([key, value]) => `${quotePythonJsonString(key)}: ${dumpsPythonJson(value)}`).join(', ')}}`;
  }
}

export function quotePythonJsonString(text: string): string {
  let quoted = '"';
  for (const character of text) {
    const code = character.charCodeAt(0);
    if (character === '"') quoted += '\\"';
    else if (character === '\\') quoted += '\\\\';
    else if (character === '\n') quoted += '\\n';
    else if (character === '\r') quoted += '\\r';
    else if (character === '\t') quoted += '\\t';
    else if (character === '\b') quoted += '\\b';
    else if (character === '\f') quoted += '\\f';
    else if (code < 0x20) quoted += `\\u${code.toString(16).padStart(4, '0')}`;
    else quoted += character;
  }
  return `${quoted}"`;
}

/** Python `repr(float)`: shortest round-trip digits, exponent form below 1e-4 or from 1e16. */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const [mantissa = '', exponentText = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exponent = Number(exponentText);
  const sign = value < 0 ? '-' : '';
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
    const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
    const fraction = digits.slice(exponent + 1);
    return `${sign}${whole}.${fraction === '' ? '0' : fraction}`;
  }
  const shortMantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const exponentSign = exponent < 0 ? '-' : '+';
  return `${sign}${shortMantissa}e${exponentSign}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

interface Parser {
  text: string;
  position: number;
}

function skipWhitespace(parser: Parser): void {
  while (parser.position < parser.text.length && ' \t\n\r'.includes(parser.text[parser.position]!))
    parser.position++;
}

function parseValue(parser: Parser): PythonJsonNode {
  const character = parser.text[parser.position];
  if (character === '{') return parseObject(parser);
  if (character === '[') return parseArray(parser);
  if (character === '"') return { kind: 'string', value: parseString(parser) };
  for (const [literal, node] of LITERALS) {
    if (parser.text.startsWith(literal, parser.position)) {
      parser.position += literal.length;
      return node;
    }
  }
  return parseNumber(parser);
}

const LITERALS: ReadonlyArray<readonly [string, PythonJsonNode]> = [
  ['null', { kind: 'null' }],
  ['true', { kind: 'bool', value: true }],
  ['false', { kind: 'bool', value: false }],
  ['NaN', { kind: 'float', value: NaN }],
  ['Infinity', { kind: 'float', value: Infinity }],
  ['-Infinity', { kind: 'float', value: -Infinity }],
];

function parseObject(parser: Parser): PythonJsonNode {
  parser.position++;
  const entries: Array<[string, PythonJsonNode]> = [];
  const indexByKey = new Map<string, number>();
  skipWhitespace(parser);
  if (parser.text[parser.position] === '}') {
    parser.position++;
    return { kind: 'object', entries };
  }
  for (;;) {
    skipWhitespace(parser);
    if (parser.text[parser.position] !== '"')
      throw new SyntaxError(`Expecting property name at ${parser.position}`);
    const key = parseString(parser);
    skipWhitespace(parser);
    expect(parser, ':');
    skipWhitespace(parser);
    const value = parseValue(parser);
    const existing = indexByKey.get(key);
    if (existing === undefined) {
      indexByKey.set(key, entries.length);
      entries.push([key, value]);
    } else {
      entries[existing] = [key, value];
    }
    skipWhitespace(parser);
    if (parser.text[parser.position] === ',') {
      parser.position++;
      continue;
    }
    expect(parser, '}');
    return { kind: 'object', entries };
  }
}

function parseArray(parser: Parser): PythonJsonNode {
  parser.position++;
  const items: PythonJsonNode[] = [];
  skipWhitespace(parser);
  if (parser.text[parser.position] === ']') {
    parser.position++;
    return { kind: 'array', items };
  }
  for (;;) {
    skipWhitespace(parser);
    items.push(parseValue(parser));
    skipWhitespace(parser);
    if (parser.text[parser.position] === ',') {
      parser.position++;
      continue;
    }
    expect(parser, ']');
    return { kind: 'array', items };
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

function parseString(parser: Parser): string {
  const { text } = parser;
  let position = parser.position + 1;
  let value = '';
  for (;;) {
    if (position >= text.length) throw new SyntaxError('Unterminated string');
    const character = text[position]!;
    if (character === '"') break;
    if (character.charCodeAt(0) < 0x20) throw new SyntaxError(`Invalid control character at ${position}`);
    if (character !== '\\') {
      value += character;
      position++;
      continue;
    }
    const escape = text[position + 1] ?? '';
    if (escape === 'u') {
      const hex = text.slice(position + 2, position + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new SyntaxError(`Invalid \\uXXXX escape at ${position}`);
      value += String.fromCharCode(parseInt(hex, 16));
      position += 6;
    } else if (escape in ESCAPES) {
      value += ESCAPES[escape];
      position += 2;
    } else {
      throw new SyntaxError(`Invalid \\escape at ${position}`);
    }
  }
  parser.position = position + 1;
  return value;
}

const NUMBER_PATTERN = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

function parseNumber(parser: Parser): PythonJsonNode {
  NUMBER_PATTERN.lastIndex = parser.position;
  const match = NUMBER_PATTERN.exec(parser.text);
  if (!match) throw new SyntaxError(`Expecting value at ${parser.position}`);
  parser.position += match[0].length;
  if (match[1] === undefined && match[2] === undefined) {
    const digits = match[0] === '-0' ? '0' : match[0];
    return { kind: 'int', digits };
  }
  return { kind: 'float', value: Number(match[0]) };
}

function expect(parser: Parser, character: string): void {
  if (parser.text[parser.position] !== character) {
    throw new SyntaxError(`Expecting '${character}' at ${parser.position}`);
  }
  parser.position++;
}
