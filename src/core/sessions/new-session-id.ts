const SUFFIX_HEX_DIGITS = 6;

/**
 * A session id in Hermes' shape, `YYYYMMDD_HHMMSS_<6 hex>` — sortable by start time. Hermes
 * uses local time; the app uses UTC so ids do not depend on the machine. The caller supplies the
 * clock and the randomness (core is pure).
 */
export function newSessionId(nowMs: number, randomHex: string): string {
  const date = new Date(nowMs);
  const two = (value: number): string => String(value).padStart(2, '0');
  const stamp =
    `${date.getUTCFullYear()}${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}_` +
    `${two(date.getUTCHours())}${two(date.getUTCMinutes())}${two(date.getUTCSeconds())}`;
  const suffix = randomHex
    .toLowerCase()
    .replace(/[^0-9a-f]/g, '')
    .slice(0, SUFFIX_HEX_DIGITS)
    .padEnd(SUFFIX_HEX_DIGITS, '0');
  return `${stamp}_${suffix}`;
}
