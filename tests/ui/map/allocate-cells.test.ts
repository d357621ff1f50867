import { describe, expect, it } from 'vitest';
import { allocateCells } from '#ui/map/allocate-cells.ts';

describe('allocateCells', () => {
  it('gives each value its proportional share of the cells', () => {
    expect(allocateCells([50, 30, 20], 100, 10)).toEqual([5, 3, 2]);
  });

  it('hands out the cells left by rounding down to the largest remainders', () => {
    // Exact shares 3.33, 3.33, 3.34 of 10: floors 3, 3, 3; the last cell goes to 3.34.
    expect(allocateCells([333, 333, 334], 1000, 10)).toEqual([3, 3, 4]);
  });

  it('fills only the share of the grid the values take', () => {
    // 120 of 200 tokens on a 20-cell grid: 12 cells, the rest stay free.
    expect(allocateCells([100, 20], 200, 20)).toEqual([10, 2]);
  });

  it('gives nothing without a scale', () => {
    expect(allocateCells([5, 5], 0, 10)).toEqual([0, 0]);
  });
});
