import { describe, expect, it } from 'vitest';
import { pythonCharacters, pythonLength, pythonSlice } from '#core/tokens/python-length.ts';

describe('pythonLength', () => {
  it('counts code points, so an emoji is one character', () => {
    expect(pythonLength('naïve café 日本 🙂')).toBe(15);
    expect('naïve café 日本 🙂'.length).toBe(16);
  });

  it('counts a lone surrogate as one character', () => {
    expect(pythonLength('a\ud800b')).toBe(3);
    expect(pythonLength('\udfff\ud800')).toBe(2);
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
});

describe('pythonCharacters', () => {
  it('splits into code points as list(text) does', () => {
    expect(pythonCharacters('a🙂')).toEqual(['a', '🙂']);
  });
});
