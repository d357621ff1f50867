import { describe, expect, it } from 'vitest';
import {
  MAXIMUM_TERM_LENGTH_CHARS,
  normalizeWord,
  searchTermsOf,
  termOccurrences,
} from '#core/search/search-terms.ts';

describe('searchTermsOf', () => {
  it('splits on anything that is not a letter or digit and folds case', () => {
    expect(searchTermsOf('Fix find_tail_cut() in src/core, v2.1!')).toEqual([
      'fix',
      'find',
      'tail',
      'cut',
      'in',
      'src',
      'core',
      'v2',
      '1',
    ]);
  });

  it('lists each term once', () => {
    expect(searchTermsOf('the cat and THE hat, the end')).toEqual(['the', 'cat', 'and', 'hat', 'end']);
  });

  it('removes Latin diacritics and unifies full-width letters', () => {
    expect(searchTermsOf('Café ÜBER naïve ｆｕｌｌ')).toEqual(['cafe', 'uber', 'naive', 'full']);
  });

  it('keeps words of other alphabets whole', () => {
    expect(searchTermsOf('Привет мир, γειά σου')).toEqual(['привет', 'мир', 'γεια', 'σου']);
  });

  it('turns a CJK run into overlapping bigrams plus its last character', () => {
    expect(searchTermsOf('上下文压缩')).toEqual(['上下', '下文', '文压', '压缩', '缩']);
  });

  it('separates CJK from adjacent Latin letters and drops CJK punctuation', () => {
    expect(searchTermsOf('Hermes的压缩、测试')).toEqual(['hermes', '的压', '压缩', '缩', '测试', '试']);
  });

  it('keeps Japanese voicing marks, so が and か stay different terms', () => {
    expect(searchTermsOf('が')).toEqual(['が']);
    expect(searchTermsOf('か')).toEqual(['か']);
  });

  it('indexes a lone CJK character as itself', () => {
    expect(searchTermsOf('a 字 b')).toEqual(['a', '字', 'b']);
  });

  it('returns nothing for text without words', () => {
    expect(searchTermsOf('  -- ... \n !!! ')).toEqual([]);
  });
});

describe('termOccurrences', () => {
  it('reports where each term sits in the original text', () => {
    const text = 'Ünïcode 中文';
    const occurrences = termOccurrences(text);
    expect(occurrences.map(({ term, start, end }) => [term, text.slice(start, end)])).toEqual([
      ['unicode', 'Ünïcode'],
      ['中文', '中文'],
      ['文', '文'],
    ]);
  });

  it('measures astral characters in UTF-16 units', () => {
    const text = '𠀋𠀌 x';
    const occurrences = termOccurrences(text);
    expect(occurrences.map(({ start, end }) => [start, end])).toEqual([
      [0, 4],
      [2, 4],
      [5, 6],
    ]);
  });
});

describe('normalizeWord', () => {
  it('cuts very long tokens to a fixed number of code points', () => {
    const long = 'a'.repeat(MAXIMUM_TERM_LENGTH_CHARS + 50);
    expect(normalizeWord(long)).toBe('a'.repeat(MAXIMUM_TERM_LENGTH_CHARS));
  });
});
