/**
 * Whole cells of a waffle chart for each value, proportional to `values` over `scale`, by
 * largest remainder: the cells add up to `cells` exactly when the values fill the scale, and
 * every value gets the nearest whole count it can without overshooting the grid.
 *
 * @example allocateCells([50, 30, 20], 100, 10) // [5, 3, 2]
 */
export function allocateCells(values: readonly number[], scale: number, cells: number): number[] {
  if (!(scale > 0)) return values.map(() => 0);
  const exact = values.map((value) => (Math.max(0, value) / scale) * cells);
  const whole = exact.map(Math.floor);
  const target = Math.min(cells, Math.round(exact.reduce((sum, value) => sum + value, 0)));
  let left = target - whole.reduce((sum, value) => sum + value, 0);
  const order = exact
    .map((value, index) => ({ index, remainder: value - Math.floor(value) }))
    .sort((left, right) => right.remainder - left.remainder || left.index - right.index);
  for (const { index } of order) {
    if (left <= 0) break;
    whole[index]! += 1;
    left -= 1;
  }
  return whole;
}
