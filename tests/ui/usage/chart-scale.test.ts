import { describe, expect, it } from 'vitest';
import { labelEvery, labelRows, niceCeiling } from '#ui/usage/chart-scale.ts';

describe('niceCeiling', () => {
  it('rounds up to 1, 2, 2.5 or 5 times a power of ten', () => {
    expect(niceCeiling(3420)).toBe(5000);
    expect(niceCeiling(9200)).toBe(10_000);
    expect(niceCeiling(2100)).toBe(2500);
    expect(niceCeiling(200)).toBe(200);
    expect(niceCeiling(0.3)).toBe(0.5);
  });

  it('gives 1 when there is nothing to scale', () => {
    expect(niceCeiling(0)).toBe(1);
    expect(niceCeiling(Number.NaN)).toBe(1);
  });
});

describe('labelEvery', () => {
  it('labels every turn when they fit, else every n-th', () => {
    expect(labelEvery(8, 10)).toBe(1);
    expect(labelEvery(95, 10)).toBe(10);
  });
});

describe('labelRows', () => {
  it('keeps labels that do not overlap in the first row', () => {
    expect(labelRows([50, 100, 150], [14, 14, 14], 2)).toEqual([0, 0, 0]);
  });

  it('moves a label that would overlap its neighbour to the next row', () => {
    // "#2" and "#3" 4 units apart, 14 wide: they would print as "#2#3".
    expect(labelRows([100, 104, 200], [14, 14, 14], 2)).toEqual([0, 1, 0]);
  });

  it('leaves a label out when every row is taken there', () => {
    expect(labelRows([100, 103, 106], [14, 14, 14], 2)).toEqual([0, 1, -1]);
  });

  it('places labels by position, whatever their order', () => {
    expect(labelRows([200, 104, 100], [14, 14, 14], 2)).toEqual([0, 1, 0]);
  });
});
