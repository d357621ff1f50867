import { describe, expect, it } from 'vitest';
import {
  addDecimal,
  decimalFromInteger,
  decimalToString,
  divideDecimal,
  formatDecimalFixed,
  multiplyDecimal,
  parseDecimal,
  type DecimalAmount,
} from '#core/usage/decimal-amount.ts';

const decimal = (text: string): DecimalAmount => parseDecimal(text)!;
const million = decimal('1000000');
/** Python: Decimal(tokens) * Decimal(price) / Decimal(1000000). */
const bucket = (tokens: number, price: string) =>
  decimalToString(divideDecimal(multiplyDecimal(decimalFromInteger(tokens), decimal(price)), million));

describe('divideDecimal', () => {
  it('keeps the ideal exponent when the quotient is exact', () => {
    expect(bucket(10_000, '5.00')).toBe('0.05');
    expect(bucket(1_000_000, '3.00')).toBe('3.00');
    expect(bucket(0, '0.30')).toBe('0.00');
  });

  it('extends the exponent as far as the exact quotient needs', () => {
    expect(bucket(50_000, '3.75')).toBe('0.1875');
  });

  it('rounds an inexact quotient to 28 significant digits, half even', () => {
    expect(decimalToString(divideDecimal(decimal('1'), decimal('3')))).toBe('0.3333333333333333333333333333');
    expect(decimalToString(divideDecimal(decimal('2'), decimal('3')))).toBe('0.6666666666666666666666666667');
  });
});

describe('decimalToString', () => {
  it('switches to exponent notation for very small amounts, as Python does', () => {
    expect(bucket(1, '0.075')).toBe('7.5E-8');
    expect(bucket(10, '0.10')).toBe('0.000001');
    expect(bucket(7, '1.25')).toBe('0.00000875');
  });
});

describe('addDecimal', () => {
  it('aligns exponents like Python', () => {
    expect(decimalToString(addDecimal(decimal('0'), decimal('0.10')))).toBe('0.10');
    expect(decimalToString(addDecimal(decimal('3.00'), decimal('0.1875')))).toBe('3.1875');
  });
});

describe('formatDecimalFixed', () => {
  it("rounds half to even like format(d, '.2f')", () => {
    expect(formatDecimalFixed(decimal('0.125'), 2)).toBe('0.12');
    expect(formatDecimalFixed(decimal('0.135'), 2)).toBe('0.14');
    expect(formatDecimalFixed(decimal('5.2875'), 2)).toBe('5.29');
    expect(formatDecimalFixed(decimal('7.5E-8'), 2)).toBe('0.00');
  });
});

describe('parseDecimal', () => {
  it('rejects text that is not a decimal literal', () => {
    expect(parseDecimal('abc')).toBeNull();
    expect(parseDecimal('.')).toBeNull();
  });
});
