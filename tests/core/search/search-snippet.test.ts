import { describe, expect, it } from 'vitest';
import { parseSearchQuery } from '#core/search/search-query.ts';
import { buildSearchSnippet, findMatchRanges } from '#core/search/search-snippet.ts';

const marked = ({ text, matches }: { text: string; matches: { start: number; end: number }[] }): string => {
  let out = '';
  let cursor = 0;
  for (const { start, end } of matches) {
    out += `${text.slice(cursor, start)}«${text.slice(start, end)}»`;
    cursor = end;
  }
  return out + text.slice(cursor);
};

describe('buildSearchSnippet', () => {
  it('returns a short text whole with its matches', () => {
    expect(marked(buildSearchSnippet('We moved the tail cut.', parseSearchQuery('tail')))).toBe(
      'We moved the «tail» cut.',
    );
  });

  it('marks every query term and prefix match', () => {
    const snippet = buildSearchSnippet(
      'Compression compresses the compressed tail',
      parseSearchQuery('tail compr'),
    );
    expect(marked(snippet)).toBe('«Compression» «compresses» the «compressed» «tail»');
  });

  it('cuts a long text around the first match at a word boundary', () => {
    const text = `${'lorem ipsum '.repeat(40)}the needle is here ${'dolor sit '.repeat(40)}`;
    const snippet = buildSearchSnippet(text, parseSearchQuery('needle'), 80);
    expect(snippet.text.startsWith('…')).toBe(true);
    expect(snippet.text.endsWith('…')).toBe(true);
    expect(snippet.text).toMatch(/^…\S/);
    expect(snippet.text.length).toBeLessThanOrEqual(82);
    expect(marked(snippet)).toContain('«needle» is here');
  });

  it('collapses whitespace runs and keeps the ranges aligned', () => {
    const snippet = buildSearchSnippet('line one\n\n   tail\tcut   \n', parseSearchQuery('tail cut'));
    expect(marked(snippet)).toBe('line one «tail» «cut»');
  });

  it('marks overlapping CJK bigrams as one range', () => {
    const snippet = buildSearchSnippet('我们讨论上下文压缩的问题', parseSearchQuery('上下文'));
    expect(marked(snippet)).toBe('我们讨论«上下文»压缩的问题');
  });

  it('cuts inside text without spaces when there is no word boundary near the match', () => {
    const snippet = buildSearchSnippet(`${'字'.repeat(100)} needle`, parseSearchQuery('needle'), 60);
    expect(snippet.text.startsWith('…字')).toBe(true);
    expect(marked(snippet).endsWith('字 «needle»')).toBe(true);
  });

  it('starts at the beginning when nothing matches', () => {
    expect(buildSearchSnippet('nothing here', parseSearchQuery('absent'))).toEqual({
      text: 'nothing here',
      matches: [],
    });
  });

  it('does not split a surrogate pair at the cut', () => {
    const snippet = buildSearchSnippet(`${'😀'.repeat(100)} needle`, parseSearchQuery('needle'), 9);
    expect(snippet.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(snippet.text).not.toMatch(/(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });
});

describe('findMatchRanges', () => {
  it('matches the folded forms of the original text', () => {
    const text = 'Ünïcode café';
    expect(
      findMatchRanges(text, parseSearchQuery('unicode cafe')).map(({ start, end }) => text.slice(start, end)),
    ).toEqual(['Ünïcode', 'café']);
  });
});
