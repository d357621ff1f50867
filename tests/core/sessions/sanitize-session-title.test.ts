import { describe, expect, it } from 'vitest';
import { MAXIMUM_TITLE_CHARS, sanitizeSessionTitle } from '#core/sessions/sanitize-session-title.ts';

describe('sanitizeSessionTitle', () => {
  it('removes bidi embeddings, overrides and isolates', () => {
    expect(sanitizeSessionTitle('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(sanitizeSessionTitle('\u202Aa\u202Bb\u202Cc\u202Dd\u2066e\u2067f\u2068g\u2069')).toBe('abcdefg');
  });

  it('keeps right-to-left text itself', () => {
    expect(sanitizeSessionTitle('שלום عالم')).toBe('שלום عالم');
  });

  it('collapses whitespace, trims, caps the length and gives null for nothing left', () => {
    expect(sanitizeSessionTitle('  a \n\t b  ')).toBe('a b');
    expect(sanitizeSessionTitle('x'.repeat(150))).toHaveLength(MAXIMUM_TITLE_CHARS);
    expect(sanitizeSessionTitle(' \u202E ')).toBeNull();
    expect(sanitizeSessionTitle(null)).toBeNull();
  });
});
