import { describe, expect, it } from 'vitest';
import {
  isSafeCountingCut,
  MAXIMUM_COUNTED_RUN_CHARS,
  nextCountingCut,
} from '#core/tokens/next-counting-cut.ts';

/** Every part `nextCountingCut` makes of `text`. */
function parts(text: string, sliceChars: number, maxRunChars?: number): string[] {
  const result: string[] = [];
  for (let start = 0; start < text.length;) {
    const end = nextCountingCut(text, start, sliceChars, maxRunChars);
    result.push(text.slice(start, end));
    start = end;
  }
  return result;
}

describe('isSafeCountingCut', () => {
  it('allows a cut before a space or tab that follows a non-space', () => {
    expect(isSafeCountingCut('one two', 3)).toBe(true);
    expect(isSafeCountingCut('one.\ttwo', 4)).toBe(true);
    expect(isSafeCountingCut('one  two', 4)).toBe(false);
  });

  it('allows a cut before a line break or punctuation that follows a letter or digit', () => {
    expect(isSafeCountingCut('end\nnext', 3)).toBe(true);
    expect(isSafeCountingCut('f(x);', 3)).toBe(true);
    expect(isSafeCountingCut('42.5', 2)).toBe(true);
    expect(isSafeCountingCut('東京。', 2)).toBe(true);
    // A punctuation piece takes the line breaks after it.
    expect(isSafeCountingCut('end.\nnext', 4)).toBe(false);
  });

  it('never cuts before an apostrophe, inside a word, a surrogate pair or a special token', () => {
    expect(isSafeCountingCut("it's", 2)).toBe(false);
    expect(isSafeCountingCut('word', 2)).toBe(false);
    expect(isSafeCountingCut('🚀🚀', 1)).toBe(false);
    const special = 'x <|fim_prefix|> y';
    for (let index = 3; index < 16; index++)
      expect(isSafeCountingCut(special, index), String(index)).toBe(false);
  });

  it('never cuts before a combining mark', () => {
    expect(isSafeCountingCut('e\u0301 ', 1)).toBe(false);
  });
});

describe('nextCountingCut', () => {
  it('keeps a text no longer than the slice whole', () => {
    expect(parts('short text', 64)).toEqual(['short text']);
  });

  it('slices long ordinary text at safe cuts, never longer than the slice', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(50);
    const sliced = parts(text, 100);
    expect(sliced.join('')).toBe(text);
    expect(Math.max(...sliced.map((part) => part.length))).toBeLessThanOrEqual(100);
    let offset = 0;
    for (const part of sliced.slice(0, -1)) {
      offset += part.length;
      expect(isSafeCountingCut(text, offset)).toBe(true);
    }
  });

  it('cuts where it must when a slice holds no safe cut', () => {
    expect(parts('0123456789'.repeat(3), 10)).toEqual(['0123456789', '0123456789', '0123456789']);
  });

  it('cuts a run of one class into parts of the bound, whatever the slice', () => {
    const run = 'a'.repeat(MAXIMUM_COUNTED_RUN_CHARS * 3 + 5);
    const sliced = parts(`x ${run} y`, 1 << 20);
    expect(sliced.join('')).toBe(`x ${run} y`);
    expect(Math.max(...sliced.map((part) => part.length))).toBeLessThanOrEqual(MAXIMUM_COUNTED_RUN_CHARS + 2);
    for (const unit of [' ', '_', '中', '\n/', '🚀']) {
      const text = unit.repeat(2000);
      const pieces = parts(text, 1 << 20, 100);
      expect(pieces.join(''), JSON.stringify(unit)).toBe(text);
      expect(Math.max(...pieces.map((part) => part.length)), JSON.stringify(unit)).toBeLessThanOrEqual(101);
    }
  });

  it('leaves runs up to the bound whole', () => {
    const text = `${'a'.repeat(100)} ${'b'.repeat(100)}`;
    expect(parts(text, 1 << 20, 100)).toEqual([text]);
  });

  it('never splits a surrogate pair', () => {
    for (const part of parts('🚀'.repeat(500), 1 << 20, 101)) expect(part.length % 2).toBe(0);
  });

  it('walks a 10 MB run in bounded parts', () => {
    const text = 'z'.repeat(10_000_000);
    let count = 0;
    for (let start = 0; start < text.length; count++) start = nextCountingCut(text, start, 16_384);
    expect(count).toBe(Math.ceil(text.length / MAXIMUM_COUNTED_RUN_CHARS));
  });
});
