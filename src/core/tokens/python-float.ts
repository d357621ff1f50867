/**
 * A JSON number that Python parsed as a `float` (it had a fraction or an exponent).
 * JS numbers lose that distinction (`1.0 === 1`), but Python prints `1.0`, so values parsed
 * with Python semantics (`parsePythonJson`) wrap floats in this class.
 */
export class PythonFloat {
  readonly value: number;

  constructor(value: number) {
    this.value = value;
  }
}

/** Python switches `repr(float)` to exponent notation outside this decimal-point window. */
const FIXED_NOTATION_MIN_DECIMAL_POINT = -3;
const FIXED_NOTATION_MAX_DECIMAL_POINT = 16;

/**
 * Python `repr(float)`: the shortest round-tripping digits (the same digits JS picks), laid out
 * with Python's rules: fixed notation with at least one fractional digit (`1.0`, `0.0001`) while the
 * decimal point sits within -3..16 digits of the first digit, else `1e+16` / `1.5e-05`.
 */
export function pythonFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (value === Infinity) return 'inf';
  if (value === -Infinity) return '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const sign = value < 0 ? '-' : '';
  const [mantissa = '0', exponentText = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const decimalPoint = Number(exponentText) + 1;
  if (decimalPoint >= FIXED_NOTATION_MIN_DECIMAL_POINT && decimalPoint <= FIXED_NOTATION_MAX_DECIMAL_POINT) {
    if (decimalPoint <= 0) return `${sign}0.${'0'.repeat(-decimalPoint)}${digits}`;
    if (decimalPoint >= digits.length) return `${sign}${digits}${'0'.repeat(decimalPoint - digits.length)}.0`;
    return `${sign}${digits.slice(0, decimalPoint)}.${digits.slice(decimalPoint)}`;
  }
  const exponent = decimalPoint - 1;
  const head = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`;
  const exponentDigits = String(Math.abs(exponent)).padStart(2, '0');
  return `${sign}${head}e${exponent < 0 ? '-' : '+'}${exponentDigits}`;
}

/** Python `repr(int)` for a JS number known to be integral (no `1e+21` exponent form). */
export function pythonIntRepr(value: number | bigint): string {
  if (typeof value === 'bigint') return value.toString();
  if (Math.abs(value) < 1e21) return String(Object.is(value, -0) ? 0 : value);
  return BigInt(value).toString();
}
