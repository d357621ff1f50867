import { describe, expect, it } from 'vitest';
import { utf8ByteLength } from '#core/import/utf8-byte-length.ts';

describe('utf8ByteLength', () => {
  it('matches Node for ASCII, accents, CJK, emoji and lone surrogates', () => {
    for (const text of ['plain', 'café', '中文', '🎉🚀', 'a\ud800b', '\udc00', 'x'.repeat(1000) + 'é']) {
      expect(utf8ByteLength(text), JSON.stringify(text)).toBe(Buffer.byteLength(text, 'utf8'));
    }
  });
});
