/** `12345` → `12,345` (fixed en-US grouping, so output does not depend on the user's locale). */
export function formatCount(value: number): string {
  const sign = value < 0 ? '-' : '';
  const digits = Math.trunc(Math.abs(value)).toString();
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `95321` → `95.3K`, `6_100_000` → `6.1M`: for space-constrained labels. */
export function formatCompactCount(value: number): string {
  const absolute = Math.abs(value);
  if (absolute >= 1_000_000) return `${(value / 1_000_000).toFixed(1)}M`;
  if (absolute >= 10_000) return `${Math.round(value / 1000)}K`;
  if (absolute >= 1000) return `${(value / 1000).toFixed(1)}K`;
  return String(value);
}
