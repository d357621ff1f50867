import { describe, expect, it } from 'vitest';
import { findMatchRanges } from '#core/search/find-match-ranges.ts';

describe('findMatchRanges', () => {
  it('finds every occurrence, case-insensitively, as ranges of the original text', () => {
    expect(findMatchRanges('Read a.txt, then A.TXT', 'a.txt')).toEqual([
      { start: 5, end: 10 },
      { start: 17, end: 22 },
    ]);
  });

  it('takes the query literally (regular-expression characters are text)', () => {
    expect(findMatchRanges('f(x) = a.b*c', '(x)')).toEqual([{ start: 1, end: 4 }]);
    expect(findMatchRanges('a.b and axb', 'a.b')).toEqual([{ start: 0, end: 3 }]);
  });

  it('trims the query and finds nothing for an empty one', () => {
    expect(findMatchRanges('pytest ran', '  pytest ')).toEqual([{ start: 0, end: 6 }]);
    expect(findMatchRanges('anything', '   ')).toEqual([]);
  });

  it('keeps offsets right past characters whose lower case is longer', () => {
    // "İ" lower-cases to two code units; ranges index the original string.
    const text = 'İstanbul pytest';
    expect(findMatchRanges(text, 'pytest')).toEqual([{ start: 9, end: 15 }]);
    expect(text.slice(9, 15)).toBe('pytest');
  });

  it('stops at the limit', () => {
    expect(findMatchRanges('aaaa', 'a', 3)).toHaveLength(3);
  });
});
