import { describe, expect, it } from 'vitest';
import { formatRate } from '#core/usage/format-rate.ts';

describe('formatRate', () => {
  it('prints a percentage with one decimal, or a dash when there is none', () => {
    expect(formatRate(0.8234)).toBe('82.3%');
    expect(formatRate(0)).toBe('0.0%');
    expect(formatRate(null)).toBe('—');
  });
});
