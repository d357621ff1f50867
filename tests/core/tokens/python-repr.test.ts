import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PythonFloat } from '#core/tokens/python-float.ts';
import {
  pythonRepr,
  pythonReprLength,
  pythonStr,
  pythonStringRepr,
  pythonStringReprLength,
} from '#core/tokens/python-repr.ts';
import type { Message } from '#core/transcript/message.ts';

interface TokenVector {
  name: string;
  input: { messages?: Message[] };
  expected: { per_message?: { python_str: string; python_str_len: number }[] };
}

const vectors = (
  JSON.parse(
    readFileSync(
      new URL('../../../../shared/conformance/hermes/token_estimates.json', import.meta.url),
      'utf8',
    ),
  ) as { cases: TokenVector[] }
).cases.flatMap((testCase) =>
  (testCase.expected.per_message ? (testCase.input.messages ?? []) : []).map((message, index) => ({
    name: `${testCase.name}[${index}]`,
    message,
    pythonStr: testCase.expected.per_message![index]!.python_str,
    length: testCase.expected.per_message![index]!.python_str_len,
  })),
);

describe('pythonRepr', () => {
  it.each(vectors)('reproduces str(message) of $name', ({ message, pythonStr: expected }) => {
    expect(pythonRepr(message)).toBe(expected);
  });

  it('quotes with double quotes only when the text has a single quote and no double quote', () => {
    expect(pythonStringRepr("it's")).toBe(`"it's"`);
    expect(pythonStringRepr(`say "hi"`)).toBe(`'say "hi"'`);
    expect(pythonStringRepr(`it's "both"`)).toBe(`'it\\'s "both"'`);
  });

  it('escapes backslashes and the named control characters', () => {
    expect(pythonStringRepr('a\\b\n\r\t')).toBe("'a\\\\b\\n\\r\\t'");
  });

  it('writes other control characters, DEL and C1 as \\xNN', () => {
    expect(pythonStringRepr('\x00\x1b\x7f\x85\x0b\x0c')).toBe("'\\x00\\x1b\\x7f\\x85\\x0b\\x0c'");
  });

  it('escapes non-printable Latin-1 and BMP characters but keeps printable non-ASCII', () => {
    expect(pythonStringRepr('\xa0\xad é 日 ß')).toBe("'\\xa0\\xad é 日 ß'");
    expect(pythonStringRepr('\u200b\u2028\ufeff\u0378')).toBe("'\\u200b\\u2028\\ufeff\\u0378'");
  });

  it('keeps printable emoji and escapes a non-printable astral character as \\U', () => {
    expect(pythonStringRepr('🙂')).toBe("'🙂'");
    expect(pythonStringRepr('\u{e0001}')).toBe("'\\U000e0001'");
  });

  it('writes lone surrogates as \\udXXX', () => {
    expect(pythonStringRepr('a\ud800b\udfff')).toBe("'a\\ud800b\\udfff'");
  });

  it('prints None, booleans, ints and floats the Python way', () => {
    expect(pythonRepr([null, undefined, true, false, 3, -0, 1.5, 1e16 + 0.5, 12n])).toBe(
      '[None, None, True, False, 3, 0, 1.5, 10000000000000000, 12]',
    );
    expect(pythonRepr(new PythonFloat(2))).toBe('2.0');
  });

  it('prints dicts in key order with ", " and ": ", dropping keys whose value is undefined', () => {
    expect(pythonRepr({ role: 'tool', content: undefined, n: { x: [] } })).toBe(
      "{'role': 'tool', 'n': {'x': []}}",
    );
    expect(
      pythonRepr(
        new Map([
          ['b', 1],
          ['a', 2],
        ]),
      ),
    ).toBe("{'b': 1, 'a': 2}");
    expect(pythonRepr({})).toBe('{}');
  });
});

describe('pythonStr', () => {
  it('returns strings unquoted and everything else as repr', () => {
    expect(pythonStr("it's")).toBe("it's");
    expect(pythonStr({ a: "it's" })).toBe(`{'a': "it's"}`);
    expect(pythonStr(null)).toBe('None');
  });
});

describe('pythonReprLength', () => {
  it.each(vectors)('equals len(str(message)) of $name', ({ message, length }) => {
    expect(pythonReprLength(message)).toBe(length);
  });

  it('matches the length of the built repr in code points for awkward strings', () => {
    const samples = [
      "it's",
      `"'`,
      '\x00🙂\ud800\u{e0001}',
      'é\xa0\\\n',
      '',
      'plain ascii',
      [1.25, { 'k"': ['\t'] }],
    ];
    for (const sample of samples) expect(pythonReprLength(sample)).toBe([...pythonRepr(sample)].length);
  });
});

describe('pythonStringReprLength ASCII fast path', () => {
  it('agrees with the length of the built repr on any ASCII with escapes and quotes', () => {
    const alphabet = ['a', 'Z', ' ', '\n', '\t', '\r', "'", '"', '\\', '{', '}', ':', '0'];
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 40 }), (text) => {
        expect(pythonStringReprLength(text)).toBe(pythonStringRepr(text).length);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('pythonStringReprLength on text mixing ASCII and other characters', () => {
  it('agrees with the length of the built repr in code points', () => {
    // Dashes, arrows, Latin-1 and C1 controls, a non-printable format character, emoji (a
    // surrogate pair), a lone surrogate of each kind, DEL and other ASCII controls, beside the
    // escapes the native counting passes handle.
    const alphabet = [
      'a',
      ' ',
      '\n',
      '\t',
      '\r',
      "'",
      '"',
      '\\',
      '—',
      '→',
      'é',
      '\xa0',
      '\x85',
      '\u200b',
      '🙂',
      '\ud800',
      '\udc00',
      '\x7f',
      '\x00',
      '\x1b',
    ];
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 40 }), (text) => {
        expect(pythonStringReprLength(text)).toBe([...pythonStringRepr(text)].length);
      }),
      { numRuns: 3000, seed: 17 },
    );
  });

  it('agrees on long texts, where the WebAssembly scan takes ASCII and any wider character sends the text past it', () => {
    const ascii = fc.string({
      unit: fc.constantFrom('a', ' ', '\n', '\t', "'", '"', '\\', '\x1b'),
      minLength: 300,
      maxLength: 700,
    });
    const other = fc.constantFrom('', 'é', '\xa0', '—', '\u200b', '🙂', '\ud800', '\udc00', '\x7f');
    fc.assert(
      fc.property(ascii, other, fc.nat(), (base, character, at) => {
        const cut = at % (base.length + 1);
        const text = base.slice(0, cut) + character + base.slice(cut);
        expect(pythonStringReprLength(text), JSON.stringify(character)).toBe(
          [...pythonStringRepr(text)].length,
        );
      }),
      { numRuns: 2000, seed: 19 },
    );
  });
});
