/**
 * Exact decimal arithmetic with Python `Decimal` semantics, for the cost figures Hermes
 * computes with `Decimal` (hermes-reference §9): `coefficient × 10^exponent`, where the exponent
 * is kept the way Python keeps it, so `str()` of a result matches byte for byte
 * (`Decimal('10000') * Decimal('5.00') / Decimal('1000000')` → `'0.05'`, not `'0.050000'`).
 */
export interface DecimalAmount {
  readonly coefficient: bigint;
  readonly exponent: number;
}

/** Python's default context precision (significant digits) for inexact results. */
const PRECISION_DIGITS = 28;

export const ZERO_AMOUNT: DecimalAmount = { coefficient: 0n, exponent: 0 };

/** Parses a plain decimal literal such as `'3.00'`, `'-0.075'` or `'1e-3'`; null if it is not one. */
export function parseDecimal(text: string): DecimalAmount | null {
  const match = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/.exec(text);
  if (!match) return null;
  const [, sign = '', whole = '', fraction = '', exponentText] = match;
  if (whole === '' && fraction === '') return null;
  const digits = `${whole}${fraction}`;
  const coefficient = BigInt(digits === '' ? '0' : digits) * (sign === '-' ? -1n : 1n);
  return { coefficient, exponent: Number(exponentText ?? '0') - fraction.length };
}

export const decimalFromInteger = (value: number): DecimalAmount => ({
  coefficient: BigInt(Math.trunc(value)),
  exponent: 0,
});

export function multiplyDecimal(first: DecimalAmount, second: DecimalAmount): DecimalAmount {
  return { coefficient: first.coefficient * second.coefficient, exponent: first.exponent + second.exponent };
}

export function addDecimal(first: DecimalAmount, second: DecimalAmount): DecimalAmount {
  const exponent = Math.min(first.exponent, second.exponent);
  return {
    coefficient: scaleUp(first, exponent) + scaleUp(second, exponent),
    exponent,
  };
}

/**
 * `first / second`. An exact quotient takes the exponent closest to the ideal
 * `first.exponent − second.exponent`; an inexact one is rounded half-even to 28 digits.
 */
export function divideDecimal(first: DecimalAmount, second: DecimalAmount): DecimalAmount {
  if (second.coefficient === 0n) throw new RangeError('decimal division by zero');
  const idealExponent = first.exponent - second.exponent;
  const negative = first.coefficient < 0n !== second.coefficient < 0n;
  const numerator = abs(first.coefficient);
  const denominator = abs(second.coefficient);
  if (numerator === 0n) return { coefficient: 0n, exponent: idealExponent };
  const maximumShift = PRECISION_DIGITS + digitCount(denominator);
  let scaled = numerator;
  for (let shift = 0; shift <= maximumShift; shift++) {
    if (scaled % denominator === 0n) {
      const quotient = scaled / denominator;
      if (digitCount(quotient) <= PRECISION_DIGITS) {
        return { coefficient: negative ? -quotient : quotient, exponent: idealExponent - shift };
      }
      break;
    }
    scaled *= 10n;
  }
  return roundedQuotient(numerator, denominator, idealExponent, negative);
}

/** Python `str(Decimal)`: plain notation unless the exponent is positive or the value is tiny. */
export function decimalToString(value: DecimalAmount): string {
  const sign = value.coefficient < 0n ? '-' : '';
  const digits = abs(value.coefficient).toString();
  const adjusted = value.exponent + digits.length - 1;
  if (value.exponent <= 0 && adjusted >= -6) {
    if (value.exponent === 0) return sign + digits;
    const point = digits.length + value.exponent;
    return point > 0
      ? `${sign}${digits.slice(0, point)}.${digits.slice(point)}`
      : `${sign}0.${'0'.repeat(-point)}${digits}`;
  }
  const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${mantissa}E${adjusted >= 0 ? '+' : ''}${adjusted}`;
}

/** Python `format(value, '.Nf')`: fixed point, rounded half-even. */
export function formatDecimalFixed(value: DecimalAmount, places: number): string {
  const rounded = quantize(value, -places);
  const sign = rounded.coefficient < 0n ? '-' : '';
  const digits = abs(rounded.coefficient)
    .toString()
    .padStart(places + 1, '0');
  if (places === 0) return sign + digits;
  return `${sign}${digits.slice(0, digits.length - places)}.${digits.slice(digits.length - places)}`;
}

export const isZeroDecimal = (value: DecimalAmount): boolean => value.coefficient === 0n;

export function compareDecimal(first: DecimalAmount, second: DecimalAmount): number {
  const exponent = Math.min(first.exponent, second.exponent);
  const difference = scaleUp(first, exponent) - scaleUp(second, exponent);
  return difference === 0n ? 0 : difference < 0n ? -1 : 1;
}

/** A JS number for display or sums where exactness no longer matters. */
export const decimalToNumber = (value: DecimalAmount): number => Number(decimalToString(value));

/** Round to the given exponent, half-even (Python `quantize` with the default context). */
function quantize(value: DecimalAmount, exponent: number): DecimalAmount {
  if (value.exponent >= exponent) return { coefficient: scaleUp(value, exponent), exponent };
  const divisor = 10n ** BigInt(exponent - value.exponent);
  const negative = value.coefficient < 0n;
  const magnitude = abs(value.coefficient);
  let quotient = magnitude / divisor;
  const remainder = magnitude % divisor;
  const twice = remainder * 2n;
  if (twice > divisor || (twice === divisor && quotient % 2n === 1n)) quotient += 1n;
  return { coefficient: negative ? -quotient : quotient, exponent };
}

function roundedQuotient(
  numerator: bigint,
  denominator: bigint,
  idealExponent: number,
  negative: boolean,
): DecimalAmount {
  // Enough digits to see the 29th, then round half-even with the remainder as a sticky bit.
  const shift = PRECISION_DIGITS + 1 + digitCount(denominator) - digitCount(numerator) + 1;
  const scaled = numerator * 10n ** BigInt(Math.max(0, shift));
  let quotient = scaled / denominator;
  let sticky = scaled % denominator !== 0n;
  let exponent = idealExponent - Math.max(0, shift);
  while (digitCount(quotient) > PRECISION_DIGITS) {
    const dropped = quotient % 10n;
    quotient /= 10n;
    exponent += 1;
    if (digitCount(quotient) === PRECISION_DIGITS) {
      const roundUp = dropped > 5n || (dropped === 5n && (sticky || quotient % 2n === 1n));
      if (roundUp) quotient += 1n;
    } else if (dropped !== 0n) {
      sticky = true;
    }
  }
  if (digitCount(quotient) > PRECISION_DIGITS) {
    quotient /= 10n;
    exponent += 1;
  }
  return { coefficient: negative ? -quotient : quotient, exponent };
}

function scaleUp(value: DecimalAmount, exponent: number): bigint {
  return value.coefficient * 10n ** BigInt(value.exponent - exponent);
}

const abs = (value: bigint): bigint => (value < 0n ? -value : value);

const digitCount = (value: bigint): number => abs(value).toString().length;
