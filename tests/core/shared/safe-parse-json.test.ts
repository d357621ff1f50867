import { describe, expect, it } from 'vitest';
import { safeParseJson } from '#core/shared/safe-parse-json.ts';

describe('safeParseJson', () => {
  it('returns the parsed value for valid JSON', () => {
    expect(safeParseJson('{"a":[1,2]}')).toEqual({ ok: true, value: { a: [1, 2] } });
  });

  it('returns a JsonParseError naming the problem for invalid JSON', () => {
    const result = safeParseJson('{"a":');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.type).toBe('JsonParseError');
  });
});
