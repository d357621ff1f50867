import { describe, expect, it } from 'vitest';
import { isolateBidi } from '#core/shared/isolate-bidi.ts';

describe('isolateBidi', () => {
  it('wraps the text in a first-strong isolate', () => {
    expect(isolateBidi('evil\u202Etxt.json')).toBe('\u2068evil\u202Etxt.json\u2069');
  });

  it('drops isolate controls inside the text, which could end the isolate early', () => {
    expect(isolateBidi('a\u2069\u202Eb\u2066')).toBe('\u2068a\u202Eb\u2069');
  });
});
