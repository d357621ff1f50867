import { describe, expect, it } from 'vitest';
import { isRegexWhitespace } from '#core/shared/is-regex-whitespace.ts';

describe('isRegexWhitespace', () => {
  it("is JavaScript's \\s for every UTF-16 code unit", () => {
    const differing: number[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (isRegexWhitespace(code) !== /\s/.test(String.fromCharCode(code))) differing.push(code);
    }
    expect(differing).toEqual([]);
  });
});
