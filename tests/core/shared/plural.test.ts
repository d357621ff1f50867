import { describe, expect, it } from 'vitest';
import { plural } from '#core/shared/plural.ts';

describe('plural', () => {
  it('uses the singular for exactly one', () => {
    expect(plural(1, 'message')).toBe('1 message');
    expect(plural(1, 'duplicate')).toBe('1 duplicate');
  });

  it('adds an s for every other count, zero included', () => {
    expect(plural(0, 'message')).toBe('0 messages');
    expect(plural(2, 'request')).toBe('2 requests');
  });

  it('groups thousands like every other count', () => {
    expect(plural(12_345, 'token')).toBe('12,345 tokens');
  });

  it('takes an irregular plural', () => {
    expect(plural(3, 'summary', 'summaries')).toBe('3 summaries');
    expect(plural(1, 'summary', 'summaries')).toBe('1 summary');
    expect(plural(2, 'match', 'matches')).toBe('2 matches');
  });
});
