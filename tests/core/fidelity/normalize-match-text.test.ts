import { describe, expect, it } from 'vitest';
import {
  normalizeMatchText,
  readMatchCode,
  readMatchCodeBefore,
} from '#core/fidelity/normalize-match-text.ts';

describe('normalizeMatchText', () => {
  it('lowers case and collapses every run of whitespace to one space', () => {
    expect(normalizeMatchText('Fixed  the\tValueError\n\nin  App.ts')).toBe('fixed the valueerror in app.ts');
  });

  it('reads Windows backslashes as slashes', () => {
    expect(normalizeMatchText('C:\\Users\\dev\\app.py')).toBe('c:/users/dev/app.py');
  });

  it('reads JSON escapes through: \\n is whitespace, \\" is a quote', () => {
    expect(normalizeMatchText('{"output": "line one\\nKeyError: \\"id\\""}')).toBe(
      '{"output": "line one keyerror: "id""}',
    );
  });

  it('folds typographic quotes and non-ASCII case', () => {
    expect(normalizeMatchText('I’ll use “Ärger” ΣΑΣ')).toBe('i\'ll use "ärger" σασ');
  });

  it('keeps CJK text as it is', () => {
    expect(normalizeMatchText('修复 登录 错误')).toBe('修复 登录 错误');
  });

  it('gives the same result on the fast ASCII path and the character path', () => {
    const ascii = 'Run  NPM Test';
    expect(normalizeMatchText(ascii)).toBe(normalizeMatchText(`${ascii}\u00a0`).trimEnd());
  });
});

describe('readMatchCode / readMatchCodeBefore', () => {
  it('read an escape as one logical character in both directions', () => {
    const text = 'a\\nb';
    expect(readMatchCode(text, 1)).toBe(32);
    expect(readMatchCodeBefore(text, 3)).toBe(32);
  });
});
