import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapseWhitespace } from '#core/compression/python-text.ts';
import { cutOneLine } from '#core/compression/cut-one-line.ts';
import { pythonLength, pythonSlice } from '#core/tokens/python-length.ts';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 2000);

/** The definition: collapse the whole text, then cut. */
function reference(text: string, limit: number): string {
  const flat = collapseWhitespace(text);
  return pythonLength(flat) > limit ? `${pythonSlice(flat, 0, limit - 1)}…` : flat;
}

const piece = fc.oneof(
  { weight: 5, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 3, arbitrary: fc.constantFrom(' ', '\n', '\t', '   ', '\u3000', '\x1c', '\x85 ', '\u00a0') },
  { weight: 1, arbitrary: fc.constantFrom('😀', 'é', '\ud800', '\udc00') },
  { weight: 1, arbitrary: fc.nat({ max: 80 }).map((count) => ' '.repeat(count)) },
);
const text = fc.array(piece, { maxLength: 120 }).map((parts) => parts.join(''));

describe('cutOneLine', () => {
  it('is the whole text collapsed, then cut, for any text and limit', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 2, max: 40 }), (sample, limit) => {
        expect(cutOneLine(sample, limit)).toBe(reference(sample, limit));
      }),
      { numRuns: RUNS },
    );
  });

  it('cuts a long output at its head, and a mostly blank one in full', () => {
    const log = 'line of output\n'.repeat(10_000);
    expect(cutOneLine(log, 20)).toBe('line of output line…');
    const blank = `${' '.repeat(5000)}word ${'\n'.repeat(5000)}end`;
    expect(cutOneLine(blank, 20)).toBe('word end');
    expect(cutOneLine(`${'😀'.repeat(100)}`, 5)).toBe('😀😀😀😀…');
  });
});
