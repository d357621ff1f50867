/**
 * Where a JSON syntax error is. V8's JSON.parse names a position for most errors but not for an
 * unexpected token; `firstJsonSyntaxError` scans for it then. It must agree with JSON.parse on
 * which texts are JSON, and with V8's own position wherever V8 names one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstJsonSyntaxError, locateJsonSyntaxError } from '#core/import/locate-json-syntax-error.ts';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);

const parserMessage = (text: string): string | null => {
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

/** JSON documents with random spacing, then a few characters inserted, replaced or deleted. */
const SPACES = fc.constantFrom('', ' ', '\n', '\t', '\r\n  ');
const NOISE = fc.constantFrom(
  ',',
  ':',
  '"',
  '\\',
  '{',
  '}',
  '[',
  ']',
  'x',
  '0',
  '-',
  '.',
  'e',
  'n',
  't',
  '\u0001',
  ' ',
  'ü',
);
const documentText = fc
  .tuple(fc.jsonValue({ maxDepth: 4 }), fc.array(SPACES, { minLength: 1, maxLength: 8 }))
  .map(([value, spaces]) => {
    let spaced = '';
    let index = 0;
    for (const piece of JSON.stringify(value, null, index % 2 === 0 ? 0 : 1).split(/(?<=[,:{}[\]])/)) {
      spaced += piece + spaces[index++ % spaces.length]!;
    }
    return spaced;
  });
const mutated = fc
  .tuple(
    documentText,
    fc.array(fc.tuple(fc.nat(), fc.constantFrom('insert', 'replace', 'delete'), NOISE), { maxLength: 3 }),
  )
  .map(([text, edits]) => {
    let out = text;
    for (const [at, kind, char] of edits) {
      const position = out.length === 0 ? 0 : at % (out.length + 1);
      if (kind === 'insert') out = out.slice(0, position) + char + out.slice(position);
      else if (kind === 'replace') out = out.slice(0, position) + char + out.slice(position + 1);
      else out = out.slice(0, position) + out.slice(position + 1);
    }
    return out;
  });

describe('firstJsonSyntaxError', () => {
  it('finds an error exactly when JSON.parse fails, at the position V8 names when it names one', () => {
    fc.assert(
      fc.property(mutated, (text) => {
        const message = parserMessage(text);
        const offset = firstJsonSyntaxError(text);
        if (message === null) {
          expect(offset).toBeUndefined();
          return;
        }
        expect(offset).toBeDefined();
        const named = /at position (\d+)/.exec(message);
        if (named) expect(offset).toBe(Number(named[1]));
      }),
      { numRuns: RUNS * 3 },
    );
  });

  it('points at the token V8 only quotes', () => {
    const text = '{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": oops}]}';
    expect(parserMessage(text)).not.toMatch(/position/);
    expect(text.slice(firstJsonSyntaxError(text))).toMatch(/^oops/);
    expect(firstJsonSyntaxError('[tru]')).toBe(4);
    expect(firstJsonSyntaxError('not JSON')).toBe(1);
    expect(firstJsonSyntaxError('[1,2,]')).toBe(5);
  });

  it('survives deep nesting without recursion', () => {
    const deep = '['.repeat(200_000) + ']'.repeat(199_999);
    expect(firstJsonSyntaxError(deep)).toBe(deep.length);
  });
});

describe('locateJsonSyntaxError', () => {
  it('gives the line and column of an unexpected token in a pretty-printed document', () => {
    const text = '{\n  "messages": [\n    {"role": "user", "content": oops}\n  ]\n}';
    expect(locateJsonSyntaxError(text, parserMessage(text)!)).toEqual({ line: 3, column: 33 });
  });

  it('reads a line and column the parser names, and puts a truncated document at its end', () => {
    expect(locateJsonSyntaxError('x', 'Unexpected token (line 7 column 3)')).toEqual({ line: 7, column: 3 });
    expect(locateJsonSyntaxError('{"a":\n [1,', 'Unexpected end of JSON input')).toEqual({
      line: 2,
      column: 5,
    });
  });
});
