import { describe, expect, it } from 'vitest';
import {
  escapeControlCharacters,
  escapeJsonControlCharacters,
} from '#core/shared/escape-control-characters.ts';

describe('escapeControlCharacters', () => {
  it('writes an OSC title sequence as visible escapes', () => {
    expect(escapeControlCharacters('a \u001b]0;title\u0007 b')).toBe('a \\x1b]0;title\\x07 b');
  });

  it('escapes C0, DEL, C1 and bidi controls, and keeps printable text and tabs', () => {
    expect(escapeControlCharacters('\u0000\r\u007f\u009b2J\u202eabc\u2066\tcafé 東京 🚀')).toBe(
      '\\x00\\x0d\\x7f\\x9b2J\\u202eabc\\u2066\tcafé 東京 🚀',
    );
  });

  it('escapes line feeds in one-line messages and keeps them in reports', () => {
    expect(escapeControlCharacters('one\ntwo')).toBe('one\\x0atwo');
    expect(escapeControlCharacters('one\ntwo\u001b[2J', true)).toBe('one\ntwo\\x1b[2J');
  });
});

describe('escapeJsonControlCharacters', () => {
  it('escapes what JSON.stringify leaves raw, giving the same JSON value', () => {
    const value = { text: 'csi \u009b31m, rlo \u202e, line \u2028 sep', escaped: 'esc \u001b' };
    const json = escapeJsonControlCharacters(JSON.stringify(value));
    expect(json).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u202e]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});
