import { describe, expect, it } from 'vitest';
import { parseSearchQuery, termMatches } from '#core/search/search-query.ts';

describe('parseSearchQuery', () => {
  it('ands the words and lets the last one match as a prefix', () => {
    expect(parseSearchQuery('Tail cut')).toEqual([
      { term: 'tail', prefix: false },
      { term: 'cut', prefix: true },
    ]);
  });

  it('treats FTS syntax as separators or plain words', () => {
    expect(parseSearchQuery('"tail" AND cut*')).toEqual([
      { term: 'tail', prefix: false },
      { term: 'and', prefix: false },
      { term: 'cut', prefix: true },
    ]);
  });

  it('asks for the bigrams of a CJK run but not its last character alone', () => {
    expect(parseSearchQuery('压缩上下文')).toEqual([
      { term: '压缩', prefix: false },
      { term: '缩上', prefix: false },
      { term: '上下', prefix: false },
      { term: '下文', prefix: false },
    ]);
  });

  it('makes a single CJK character a prefix term', () => {
    expect(parseSearchQuery('文 tail')).toEqual([
      { term: '文', prefix: true },
      { term: 'tail', prefix: true },
    ]);
  });

  it('asks for a repeated term once, exactly when it was once asked for exactly', () => {
    expect(parseSearchQuery('cut tail cut')).toEqual([
      { term: 'cut', prefix: false },
      { term: 'tail', prefix: false },
    ]);
  });

  it('returns no terms for a query of punctuation', () => {
    expect(parseSearchQuery(' *"() ')).toEqual([]);
  });
});

describe('termMatches', () => {
  it('compares exactly or by prefix', () => {
    expect(termMatches({ term: 'cut', prefix: false }, 'cuts')).toBe(false);
    expect(termMatches({ term: 'cut', prefix: true }, 'cuts')).toBe(true);
    expect(termMatches({ term: 'cut', prefix: false }, 'cut')).toBe(true);
  });
});
