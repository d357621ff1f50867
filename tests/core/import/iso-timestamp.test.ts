import { describe, expect, it } from 'vitest';
import { toIsoTimestamp } from '#core/import/iso-timestamp.ts';

describe('toIsoTimestamp', () => {
  it('keeps ISO strings as written and converts Unix seconds and milliseconds', () => {
    expect(toIsoTimestamp('2026-04-13T21:38:56.194348')).toBe('2026-04-13T21:38:56.194348');
    expect(toIsoTimestamp(1757601694.1)).toBe('2025-09-11T14:41:34.100Z');
    expect(toIsoTimestamp(1757601694100)).toBe('2025-09-11T14:41:34.100Z');
  });

  it('rejects what is not a time', () => {
    for (const value of ['yesterday', '[trimmed for fixture]', -5, Number.NaN, 1e300, null, {}]) {
      expect(toIsoTimestamp(value)).toBeUndefined();
    }
  });
});
