/**
 * The line of a JSON.parse failure. V8 names a position for most errors ("at position 123";
 * newer versions "(line 3 column 5)"; "Unexpected end of JSON input" for a truncated document,
 * which fails on its last line) but not for an unexpected token, where it quotes a few characters
 * around it ("Unexpected token 'o', ...\"content\": oops}]}\" is not valid JSON"): a stray word
 * in a 100 MB file would have no line. Then the document is scanned for its first syntax error
 * (`firstJsonSyntaxError`). Undefined only when the text is valid JSON after all.
 */
/** Where a JSON syntax error is: 1-based line and column (in UTF-16 units, as editors count). */
export interface JsonSyntaxErrorLocation {
  readonly line: number;
  readonly column: number;
}

export function locateJsonSyntaxError(
  text: string,
  parserMessage: string,
): JsonSyntaxErrorLocation | undefined {
  const lineMatch = /\(line (\d+) column (\d+)\)/.exec(parserMessage);
  if (lineMatch) return { line: Number(lineMatch[1]), column: Number(lineMatch[2]) };
  const positionMatch = /at position (\d+)/.exec(parserMessage);
  // A truncated document fails at its very end.
  const position = positionMatch
    ? Math.min(Number(positionMatch[1]), text.length)
    : /end of JSON input/i.test(parserMessage)
      ? text.trimEnd().length
      : firstJsonSyntaxError(text);
  if (position === undefined) return undefined;
  let line = 1;
  let lineStart = 0;
  for (
    let index = text.indexOf('\n');
    index !== -1 && index < position;
    index = text.indexOf('\n', index + 1)
  ) {
    line += 1;
    lineStart = index + 1;
  }
  return { line, column: position - lineStart + 1 };
}

const isJsonSpace = (code: number): boolean =>
  code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
const isDigit = (code: number): boolean => code >= 0x30 && code <= 0x39;
const isHexDigit = (code: number): boolean =>
  isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
const ESCAPABLE = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

/** What the scanner expects next. */
const EXPECT = {
  value: 0,
  /** After `[`: a value or `]`. */
  valueOrClose: 1,
  /** After `{`: a key or `}`. */
  keyOrClose: 2,
  /** After `,` in an object. */
  key: 3,
  colon: 4,
  /** After a value in a container: `,` or its closing bracket. */
  commaOrClose: 5,
  /** After the document's value: only whitespace. */
  end: 6,
} as const;
type Expect = (typeof EXPECT)[keyof typeof EXPECT];

/**
 * The offset of the first character at which `text` stops being JSON (RFC 8259, as JSON.parse
 * reads it), `text.length` when it ends too early, or undefined when it is valid. One pass,
 * with an explicit stack: a deeply nested document cannot overflow the call stack. Used only
 * after JSON.parse has failed, to say where.
 */
export function firstJsonSyntaxError(text: string): number | undefined {
  // The open containers: true for an object, false for an array.
  const stack: boolean[] = [];
  let expect: Expect = EXPECT.value;
  let at = 0;
  // What follows a value (a scalar, or a container just closed): its container goes on, or the document ends.
  const afterValue = (): Expect => (stack.length === 0 ? EXPECT.end : EXPECT.commaOrClose);
  const length = text.length;
  while (at < length) {
    const code = text.charCodeAt(at);
    if (isJsonSpace(code)) {
      at++;
      continue;
    }
    if (expect === EXPECT.end) return at;
    // The open container's closing bracket, where one may come: after `{`, `[` or a value in it.
    const inObject = stack[stack.length - 1];
    if (
      (expect === EXPECT.commaOrClose || expect === EXPECT.keyOrClose || expect === EXPECT.valueOrClose) &&
      code === (inObject ? 0x7d : 0x5d)
    ) {
      at++;
      stack.pop();
      expect = afterValue();
      continue;
    }
    if (expect === EXPECT.colon || expect === EXPECT.commaOrClose) {
      if (code !== (expect === EXPECT.colon ? 0x3a : 0x2c)) return at;
      at++;
      expect = expect === EXPECT.colon || !inObject ? EXPECT.value : EXPECT.key;
      continue;
    }
    if (expect === EXPECT.keyOrClose || expect === EXPECT.key) {
      if (code !== 0x22) return at;
      const end = stringEnd(text, at);
      if (end < 0) return -end - 1;
      at = end;
      expect = EXPECT.colon;
      continue;
    }
    if (code === 0x7b || code === 0x5b) {
      stack.push(code === 0x7b);
      at++;
      expect = code === 0x7b ? EXPECT.keyOrClose : EXPECT.valueOrClose;
      continue;
    }
    let end: number;
    if (code === 0x22) end = stringEnd(text, at);
    else if (code === 0x2d || isDigit(code)) end = numberEnd(text, at);
    else if (code === 0x74) end = literalEnd(text, at, 'true');
    else if (code === 0x66) end = literalEnd(text, at, 'false');
    else if (code === 0x6e) end = literalEnd(text, at, 'null');
    else return at;
    if (end < 0) return -end - 1;
    at = end;
    expect = afterValue();
  }
  return expect === EXPECT.end ? undefined : length;
}

/** After the string opening at `start`: its end, or -(offset + 1) of the error. */
function stringEnd(text: string, start: number): number {
  let at = start + 1;
  while (at < text.length) {
    const code = text.charCodeAt(at);
    if (code === 0x22) return at + 1;
    if (code < 0x20) return -(at + 1);
    if (code === 0x5c) {
      const next = text.charCodeAt(at + 1);
      if (next === 0x75) {
        for (let digit = 2; digit < 6; digit++)
          if (!isHexDigit(text.charCodeAt(at + digit))) return -(Math.min(at + digit, text.length) + 1);
        at += 6;
        continue;
      }
      if (!ESCAPABLE.has(next)) return -(Math.min(at + 1, text.length) + 1);
      at += 2;
      continue;
    }
    at++;
  }
  return -(text.length + 1);
}

/** After the number starting at `start`: its end, or -(offset + 1) of the error. */
function numberEnd(text: string, start: number): number {
  let at = start;
  if (text.charCodeAt(at) === 0x2d) at++;
  if (text.charCodeAt(at) === 0x30) at++;
  else if (isDigit(text.charCodeAt(at))) while (isDigit(text.charCodeAt(at))) at++;
  else return -(Math.min(at, text.length) + 1);
  if (text.charCodeAt(at) === 0x2e) {
    at++;
    if (!isDigit(text.charCodeAt(at))) return -(Math.min(at, text.length) + 1);
    while (isDigit(text.charCodeAt(at))) at++;
  }
  const exponent = text.charCodeAt(at);
  if (exponent === 0x65 || exponent === 0x45) {
    at++;
    const sign = text.charCodeAt(at);
    if (sign === 0x2b || sign === 0x2d) at++;
    if (!isDigit(text.charCodeAt(at))) return -(Math.min(at, text.length) + 1);
    while (isDigit(text.charCodeAt(at))) at++;
  }
  return at;
}

/** After the literal `word` at `start`: its end, or -(offset + 1) of the first wrong character. */
function literalEnd(text: string, start: number, word: string): number {
  for (let index = 0; index < word.length; index++)
    if (text.charCodeAt(start + index) !== word.charCodeAt(index))
      return -(Math.min(start + index, text.length) + 1);
  return start + word.length;
}

/** Drops a leading UTF-8 byte order mark, which JSON.parse rejects. */
export const stripByteOrderMark = (text: string): string =>
  text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
