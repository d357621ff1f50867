import { describe, expect, it } from 'vitest';
import { parseRetryAfterMs } from '#core/providers/parse-retry-after-ms.ts';

const now = Date.parse('2026-11-21T12:00:00Z');

describe('parseRetryAfterMs', () => {
  it('reads seconds', () => {
    expect(parseRetryAfterMs({ 'retry-after': '7' }, now)).toBe(7000);
  });

  it('prefers OpenAI retry-after-ms', () => {
    expect(parseRetryAfterMs({ 'retry-after-ms': '250', 'retry-after': '1' }, now)).toBe(250);
  });

  it('reads an HTTP date relative to now', () => {
    expect(parseRetryAfterMs({ 'retry-after': 'Sat, 21 Nov 2026 12:00:30 GMT' }, now)).toBe(30_000);
  });

  it('is undefined when absent or unreadable', () => {
    expect(parseRetryAfterMs({}, now)).toBeUndefined();
    expect(parseRetryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
  });
});
