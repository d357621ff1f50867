import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  pythonCharacters,
  pythonLength,
  pythonLengthExceeds,
  pythonSlice,
} from '#core/tokens/python-length.ts';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 3000);
/** Texts of one-byte and two-byte characters, surrogate pairs and lone halves of either kind. */
const surrogateText = fc
  .array(fc.constantFrom('a', 'é', '—', '🙂', '\ud800', '\udc00', '\ud83d', '\ude00'), { maxLength: 24 })
  .map((units) => units.join(''));

describe('pythonLength', () => {
  it('counts code points, so an emoji is one character', () => {
    expect(pythonLength('naïve café 日本 🙂')).toBe(15);
    expect('naïve café 日本 🙂'.length).toBe(16);
  });

  it('counts a lone surrogate as one character', () => {
    expect(pythonLength('a\ud800b')).toBe(3);
    expect(pythonLength('\udfff\ud800')).toBe(2);
  });

  it('agrees with the list of code points, pairs, lone halves and both string widths alike', () => {
    fc.assert(
      fc.property(surrogateText, (sample) => {
        expect(pythonLength(sample), JSON.stringify(sample)).toBe(Array.from(sample).length);
      }),
      { numRuns: RUNS, seed: 47 },
    );
  });
});

describe('pythonSlice', () => {
  it('slices by code points without splitting a surrogate pair', () => {
    expect(pythonSlice('🙂🙂🙂', 0, 2)).toBe('🙂🙂');
    expect(pythonSlice('a🙂b', 1)).toBe('🙂b');
  });

  it('treats negative indices like Python', () => {
    expect(pythonSlice('ab🙂cd', -3)).toBe('🙂cd');
    expect(pythonSlice('abcdef', -2)).toBe('ef');
    expect(pythonSlice('ab🙂', 5)).toBe('');
  });

  it('cuts heads and tails without splitting a pair at the cut', () => {
    expect(pythonSlice('ab🙂cd', 0, 3)).toBe('ab🙂');
    expect(pythonSlice('ab🙂cd', 0, 2)).toBe('ab');
    expect(pythonSlice('ab🙂cd', -4)).toBe('b🙂cd');
    expect(pythonSlice('\udc00x', -2)).toBe('\udc00x');
    expect(pythonSlice('x\ud800', 0, 2)).toBe('x\ud800');
  });

  it('agrees with slicing the list of code points, for any start and end', () => {
    const index = fc.integer({ min: -30, max: 30 });
    fc.assert(
      fc.property(surrogateText, index, fc.option(index, { nil: undefined }), (sample, start, end) => {
        const expected = Array.from(sample).slice(start, end).join('');
        expect(pythonSlice(sample, start, end), JSON.stringify([sample, start, end])).toBe(expected);
      }),
      { numRuns: RUNS, seed: 43 },
    );
  });
});

describe('pythonCharacters', () => {
  it('splits into code points as list(text) does', () => {
    expect(pythonCharacters('a🙂')).toEqual(['a', '🙂']);
  });
});

describe('pythonLengthExceeds', () => {
  const emoji = '😀'; // one code point, two UTF-16 units

  it('decides from the code-point count, pairs counting once', () => {
    expect(pythonLengthExceeds('a'.repeat(5), 4)).toBe(true);
    expect(pythonLengthExceeds('a'.repeat(4), 4)).toBe(false);
    // 3 code points in 6 units: over 2 and 5 is not decided by the unit count.
    expect(pythonLengthExceeds(emoji.repeat(3), 2)).toBe(true);
    expect(pythonLengthExceeds(emoji.repeat(3), 3)).toBe(false);
    expect(pythonLengthExceeds(emoji.repeat(3), 5)).toBe(false);
    // A lone surrogate is one code point of its own.
    expect(pythonLengthExceeds(`\ud83d${emoji}`, 1)).toBe(true);
    expect(pythonLengthExceeds(`\ud83d${emoji}`, 2)).toBe(false);
  });

  it('agrees with pythonLength around the limit', () => {
    for (let pairs = 0; pairs <= 6; pairs++)
      for (let plain = 0; plain <= 6; plain++) {
        const text = emoji.repeat(pairs) + 'x'.repeat(plain);
        for (let limit = 0; limit <= 14; limit++)
          expect(pythonLengthExceeds(text, limit), `${pairs} pairs, ${plain} plain, over ${limit}`).toBe(
            pythonLength(text) > limit,
          );
      }
  });
});
