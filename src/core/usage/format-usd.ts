/** Below a dollar, at least this many significant digits, so small per-turn costs are not all `$0.01`. */
const SMALL_AMOUNT_SIGNIFICANT_DIGITS = 2;

/**
 * A dollar amount for labels: `$1.23`, `$0.015` and `$0.0042` below a dollar, `price unknown` when
 * unknown (never `$0`: a model missing from the price table is not free), and `≥ $1.23` when some of
 * the requests summed had no price. A sum where no request had a price is unknown: pass null.
 *
 * @example formatUsd(0.004217) // '$0.0042'
 */
export function formatUsd(amount: number | null, complete = true): string {
  if (amount === null) return 'price unknown';
  const sign = amount < 0 ? '−' : '';
  const absolute = Math.abs(amount);
  let digits: string;
  if (absolute === 0) digits = '0.00';
  else if (absolute < 1) {
    const decimals = Math.min(
      8,
      Math.max(2, -Math.floor(Math.log10(absolute)) + SMALL_AMOUNT_SIGNIFICANT_DIGITS - 1),
    );
    digits = absolute.toFixed(decimals);
  } else digits = absolute.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${complete ? '' : '≥ '}${sign}$${digits}`;
}
