import { describe, expect, it } from 'vitest';
import { formatUsd } from '#core/usage/format-usd.ts';

describe('formatUsd', () => {
  it('shows cents, grouping thousands', () => {
    expect(formatUsd(5.2875)).toBe('$5.29');
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd(0)).toBe('$0.00');
  });

  it('keeps two significant digits below a dollar', () => {
    expect(formatUsd(0.0147)).toBe('$0.015');
    expect(formatUsd(0.25)).toBe('$0.25');
    expect(formatUsd(0.004217)).toBe('$0.0042');
    expect(formatUsd(0.000051)).toBe('$0.000051');
  });

  it('says "price unknown" for an unknown price and marks a lower bound', () => {
    expect(formatUsd(null)).toBe('price unknown');
    expect(formatUsd(0.5, false)).toBe('≥ $0.50');
  });

  it('signs a negative amount (caching that cost more than it saved)', () => {
    expect(formatUsd(-0.25)).toBe('−$0.25');
  });
});
