import { describe, expect, it } from 'vitest';
import { parseNumberInput } from '#core/lab/parse-number-input.ts';

describe('parseNumberInput', () => {
  const whole = { min: 1, max: 10_000_000, integer: true };

  it('reads a number within the bounds', () => {
    expect(parseNumberInput('128000', whole)).toEqual({ ok: true, value: 128_000 });
    expect(parseNumberInput(' 1 ', whole)).toEqual({ ok: true, value: 1 });
    expect(parseNumberInput('0.25', { min: 0, max: 1, integer: false })).toEqual({ ok: true, value: 0.25 });
  });

  it('refuses empty, out-of-range and fractional whole numbers with one sentence', () => {
    const sentence = 'Enter a whole number from 1 to 10,000,000.';
    for (const text of ['', '  ', '0', '10000001', '2.5', 'abc'])
      expect(parseNumberInput(text, whole)).toEqual({ ok: false, error: sentence });
  });

  it('says "number" where fractions are allowed', () => {
    expect(parseNumberInput('7', { min: 0.5, max: 5, integer: false })).toEqual({
      ok: false,
      error: 'Enter a number from 0.5 to 5.',
    });
  });
});
