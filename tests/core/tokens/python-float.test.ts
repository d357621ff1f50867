import { describe, expect, it } from 'vitest';
import { pythonFloatRepr, pythonIntRepr } from '#core/tokens/python-float.ts';

describe('pythonFloatRepr', () => {
  it.each([
    [1, '1.0'],
    [1.5, '1.5'],
    [0.1 + 0.2, '0.30000000000000004'],
    [1e15, '1000000000000000.0'],
    [1e16, '1e+16'],
    [3.3e16, '3.3e+16'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [1.5e-5, '1.5e-05'],
    [123456789012345680, '1.2345678901234568e+17'],
    [1e300, '1e+300'],
    [-2.5, '-2.5'],
    [-0, '-0.0'],
    [0, '0.0'],
  ])('writes %s as %s', (value, expected) => {
    expect(pythonFloatRepr(value)).toBe(expected);
  });

  it('writes the special values as nan, inf and -inf', () => {
    expect([NaN, Infinity, -Infinity].map(pythonFloatRepr)).toEqual(['nan', 'inf', '-inf']);
  });
});

describe('pythonIntRepr', () => {
  it('writes integers in full, never in exponent form', () => {
    expect(pythonIntRepr(1e21)).toBe('1000000000000000000000');
    expect(pythonIntRepr(-0)).toBe('0');
    expect(pythonIntRepr(2n ** 70n)).toBe('1180591620717411303424');
  });
});
