import { describe, expect, it } from 'vitest';
import { formatQuantity } from '#core/shared/format-quantity.ts';

describe('formatQuantity', () => {
  it('says one in the singular and every other count in the plural, grouped', () => {
    expect(formatQuantity(1, 'message')).toBe('1 message');
    expect(formatQuantity(0, 'message')).toBe('0 messages');
    expect(formatQuantity(2048, 'message')).toBe('2,048 messages');
    expect(formatQuantity(3, 'summary', 'summaries')).toBe('3 summaries');
  });
});
