import { describe, expect, it } from 'vitest';
import { capAtWord } from '#core/fidelity/cap-at-word.ts';

describe('capAtWord', () => {
  it('keeps short text whole', () => {
    expect(capAtWord('short', 10)).toBe('short');
  });

  it('cuts at the last space before the limit', () => {
    // The space at index 23 is the last one before 25 characters.
    expect(capAtWord('ModuleNotFoundError: No module named numpy', 25)).toBe('ModuleNotFoundError: No');
    // A space exactly at the limit keeps everything before it.
    expect(capAtWord('ModuleNotFoundError: No module named numpy', 30)).toBe(
      'ModuleNotFoundError: No module',
    );
  });

  it('cuts after punctuation rather than inside a word when there is no space', () => {
    expect(capAtWord('a/very/long/path/without/spaces', 20)).toBe('a/very/long/path/');
  });

  it('cuts a single overlong word at the limit', () => {
    expect(capAtWord('x'.repeat(50), 10)).toBe('x'.repeat(10));
  });
});
