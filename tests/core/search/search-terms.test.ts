import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAXIMUM_TERM_LENGTH_CHARS,
  normalizeWord,
  searchTermsInSteps,
  searchTermsOf,
  termOccurrences,
} from '#core/search/search-terms.ts';

/** Runs a stepped reading to its end and returns its result. */
function drain<T>(steps: Generator<void, T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

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

describe('termOccurrences on long unbroken runs', () => {
  /** The pattern before runs were matched in windows: one match per run, however long. */
  const CJK = '\\p{scx=Han}\\p{scx=Hiragana}\\p{scx=Katakana}\\p{scx=Hangul}';
  const UNBOUNDED = new RegExp(
    `((?:(?=[\\p{L}\\p{N}])[${CJK}])+)|((?:(?![${CJK}])[\\p{L}\\p{N}\\p{M}])+)`,
    'gu',
  );
  function reference(text: string): Array<{ term: string; kind: string; start: number; end: number }> {
    const occurrences: Array<{ term: string; kind: string; start: number; end: number }> = [];
    for (const match of text.matchAll(UNBOUNDED)) {
      if (match[1] === undefined) {
        const term = normalizeWord(match[0]);
        occurrences.push({ term, kind: 'word', start: match.index, end: match.index + match[0].length });
        continue;
      }
      const characters = Array.from(match[1]);
      let offset = match.index;
      characters.forEach((first, index) => {
        const second = characters[index + 1] ?? '';
        const term = (first + second).normalize('NFKC').toLowerCase();
        occurrences.push({ term, kind: 'cjk', start: offset, end: offset + first.length + second.length });
        offset += first.length;
      });
    }
    return occurrences;
  }

  it('finds the same occurrences as one match per run, across the window joins', () => {
    const pieces = ['a', 'É', 'e\u0301', '7', '中', '文', '😀', ' ', '.', '한', '𠀀', 'x'];
    // Runs of one piece: mostly short, some long enough to cross the 1,024-character windows.
    const run = fc.record({
      piece: fc.constantFrom(...pieces),
      times: fc.oneof(
        { withCrossShrink: true },
        { arbitrary: fc.integer({ min: 1, max: 5 }), weight: 4 },
        { arbitrary: fc.integer({ min: 900, max: 3400 }), weight: 1 },
      ),
    });
    const text = fc
      .array(run, { minLength: 1, maxLength: 60 })
      .map((runs) => runs.map(({ piece, times }) => piece.repeat(times)).join(''));
    fc.assert(
      fc.property(text, (sample) => {
        expect(termOccurrences(sample)).toEqual(reference(sample));
        // Read in small steps, windows cut runs anywhere: the terms are the same.
        const distinct = [...new Set(reference(sample).map((occurrence) => occurrence.term))];
        expect(drain(searchTermsInSteps(sample, 97))).toEqual(distinct);
      }),
      { numRuns: 40 },
    );
  });

  it('reads text in steps even where it holds no term at all', () => {
    const steps = searchTermsInSteps('🚀'.repeat(100_000), 32_768);
    let pauses = 0;
    for (let step = steps.next(); !step.done; step = steps.next()) pauses += 1;
    expect(pauses).toBe(Math.ceil(200_000 / 32_768) - 1);
  });

  it('indexes an 8 MB run of letters with accents as one capped word instead of overflowing the stack', () => {
    const text = 'a\u0301'.repeat(4_000_000);
    expect(searchTermsOf(`before ${text} after`)).toEqual([
      'before',
      'a'.repeat(MAXIMUM_TERM_LENGTH_CHARS),
      'after',
    ]);
  });

  it('indexes an 8 MB CJK run as its few distinct bigrams', () => {
    expect(searchTermsOf('中文'.repeat(4_000_000))).toEqual(['中文', '文中', '文']);
  });
});

describe('normalizeWord', () => {
  it('cuts very long tokens to a fixed number of code points', () => {
    const long = 'a'.repeat(MAXIMUM_TERM_LENGTH_CHARS + 50);
    expect(normalizeWord(long)).toBe('a'.repeat(MAXIMUM_TERM_LENGTH_CHARS));
  });
});

describe('searchTermsOf, the ASCII fast path', () => {
  /** Characters of every kind the two paths treat differently, ASCII separators among them. */
  const ALPHABET = [
    ...'abcXYZ019',
    ...' _-./:,\n\t"{}',
    'é',
    'e\u0301',
    'İ',
    'ß',
    'ｆ',
    '中',
    '文',
    'が',
    '、',
    '한',
    'Ω',
    'ж',
    '🚀',
    '\u00a0',
    '—',
    '٣',
  ];

  it('finds exactly the terms the Unicode pattern finds, in the same order', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...ALPHABET), { maxLength: 80 }), (characters) => {
        const text = characters.join('');
        const expected = [...new Set(termOccurrences(text).map((occurrence) => occurrence.term))];
        expect(searchTermsOf(text)).toEqual(expected);
        expect(drain(searchTermsInSteps(text, 7))).toEqual(expected);
      }),
      { numRuns: 2_000, seed: 17 },
    );
  });

  it('cuts a long ASCII word to the same number of characters as any other word', () => {
    const word = `${'Ab'.repeat(100)}`;
    expect(searchTermsOf(`x ${word} y`)).toEqual(['x', 'ab'.repeat(MAXIMUM_TERM_LENGTH_CHARS / 2), 'y']);
    expect(searchTermsOf(`x ${word}é`)).toEqual(['x', 'ab'.repeat(MAXIMUM_TERM_LENGTH_CHARS / 2)]);
  });

  it('lists a term once whether it came from an ASCII word or through the Unicode pattern', () => {
    expect(searchTermsOf('cafe Café CAFE café')).toEqual(['cafe']);
    expect(searchTermsOf('Café cafe')).toEqual(['cafe']);
    // Two long words that differ only after the cut are one term.
    const cut = 'q'.repeat(MAXIMUM_TERM_LENGTH_CHARS);
    expect(searchTermsOf(`${cut}aaa ${cut}bbb ${cut}`)).toEqual([cut]);
  });

  it('keeps every distinct word of a long text, in order of first appearance', () => {
    // Thousands of distinct words make the term table grow many times over.
    const words = Array.from({ length: 5000 }, (_, index) => `w${index.toString(36)}`);
    const text = [...words, ...words.map((word) => word.toUpperCase())].join(' ');
    expect(searchTermsOf(text)).toEqual(words);
    expect(drain(searchTermsInSteps(text, 64))).toEqual(words);
  });
});
