/**
 * The smallest "nice" axis maximum (1, 2, 2.5 or 5 × 10^k) at or above `value`, so tick labels
 * are round numbers. 1 for nothing to show, so the axis still has a scale.
 *
 * @example niceCeiling(3_420) // 5_000
 */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/** Label every n-th turn so at most `maximumLabels` fit under the axis. */
export const labelEvery = (count: number, maximumLabels: number): number =>
  Math.max(1, Math.ceil(count / Math.max(1, maximumLabels)));
