import { describe, expect, it } from 'vitest';
import { PythonFloat } from '#core/tokens/python-float.ts';
import { pythonHasNonWhitespace, pythonTruthy } from '#core/tokens/python-truthy.ts';

describe('pythonTruthy', () => {
  it('treats empty values, zero and None as false', () => {
    expect(
      ['', 0, 0n, null, undefined, false, [], {}, new Map(), new PythonFloat(0)].map(pythonTruthy),
    ).toEqual(Array(10).fill(false));
  });

  it('treats everything else as true', () => {
    expect(
      ['0', 1, -1n, true, [0], { a: 0 }, new Map([['a', 0]]), new PythonFloat(0.5)].map(pythonTruthy),
    ).toEqual(Array(8).fill(true));
  });
});

describe('pythonHasNonWhitespace', () => {
  it('uses str.isspace(): \\x1c-\\x1f and \\x85 are whitespace, \\ufeff is not', () => {
    expect(pythonHasNonWhitespace(' \t\n\x1c\x1f\x85\xa0\u3000')).toBe(false);
    expect(pythonHasNonWhitespace('\ufeff')).toBe(true);
    expect(pythonHasNonWhitespace('  x ')).toBe(true);
  });
});
