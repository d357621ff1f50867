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

/**
 * The row (0 = nearest the plot) each centred label goes in so that no two labels in a row
 * overlap; -1 when every row is taken there (the label is left to its tooltip). Labels are
 * placed left to right, each in the first row with room for it.
 *
 * @example labelRows([100, 104, 200], [14, 14, 14], 2) // [0, 1, 0]
 */
export function labelRows(centres: readonly number[], widths: readonly number[], rows: number): number[] {
  const LABEL_GAP = 2;
  const rightEdges = Array.from({ length: rows }, () => Number.NEGATIVE_INFINITY);
  const placed = centres.map(() => -1);
  const order = centres.map((_, index) => index).sort((left, right) => centres[left]! - centres[right]!);
  for (const index of order) {
    const half = (widths[index] ?? 0) / 2;
    const row = rightEdges.findIndex((edge) => centres[index]! - half >= edge + LABEL_GAP);
    if (row < 0) continue;
    placed[index] = row;
    rightEdges[row] = centres[index]! + half;
  }
  return placed;
}
