import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8ByteLength } from '#core/import/utf8-byte-length.ts';

describe('utf8ByteLength', () => {
  it('matches Node for ASCII, accents, CJK, emoji and lone surrogates', () => {
    for (const text of ['plain', 'café', '中文', '🎉🚀', 'a\ud800b', '\udc00', 'x'.repeat(1000) + 'é']) {
      expect(utf8ByteLength(text), JSON.stringify(text)).toBe(Buffer.byteLength(text, 'utf8'));
    }
  });

  it('matches Node on any mix of ASCII runs and other units, lone surrogates included', () => {
    const unit = fc.oneof(
      fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
      fc.string({ unit: 'binary', maxLength: 4 }),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(utf8ByteLength(text)).toBe(Buffer.byteLength(text, 'utf8'));
      }),
    );
  });
});
