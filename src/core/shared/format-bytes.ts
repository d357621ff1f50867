const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * `1_536` → `1.5 KB`, `52_428_800` → `50 MB`: binary multiples, as browsers report storage
 * quotas, one decimal under 10 of a unit.
 */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${Math.round(value)} bytes`;
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${UNITS[unit]}`;
}
