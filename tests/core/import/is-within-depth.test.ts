import { describe, expect, it } from 'vitest';
import { isWithinDepth } from '#core/import/is-within-depth.ts';

describe('isWithinDepth', () => {
  it('measures nesting without recursing, even 100,000 levels deep', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    expect(isWithinDepth(deep)).toBe(false);
    expect(isWithinDepth({ a: [{ b: 1 }] }, 3)).toBe(true);
    expect(isWithinDepth({ a: [{ b: {} }] }, 3)).toBe(false);
    expect(isWithinDepth('text')).toBe(true);
  });
});
