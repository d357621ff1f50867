import { describe, expect, it } from 'vitest';
import { detectUndecodedUtf16 } from '#core/import/detect-undecoded-utf16.ts';
import { importTranscript } from '#core/import/import-transcript.ts';
import { sniffTextEncoding } from '#core/import/sniff-text-encoding.ts';

const sample = '{"messages":[{"role":"user","content":"hi"}]}';

/** What a UTF-16 file becomes when its bytes are decoded as UTF-8 by mistake. */
function misdecoded(text: string, order: 'le' | 'be', withBom: boolean): string {
  const units = [...text].flatMap((char) => {
    const code = char.charCodeAt(0);
    return order === 'le' ? [code & 0xff, code >> 8] : [code >> 8, code & 0xff];
  });
  const bom = withBom ? (order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]) : [];
  return new TextDecoder('utf-8').decode(new Uint8Array([...bom, ...units]));
}

function utf16Bytes(text: string, order: 'le' | 'be', withBom: boolean): Uint8Array {
  const units = [...text].flatMap((char) => {
    const code = char.charCodeAt(0);
    return order === 'le' ? [code & 0xff, code >> 8] : [code >> 8, code & 0xff];
  });
  return new Uint8Array([...(withBom ? (order === 'le' ? [0xff, 0xfe] : [0xfe, 0xff]) : []), ...units]);
}

describe('detectUndecodedUtf16', () => {
  it('recognises both byte orders, with and without a byte order mark', () => {
    expect(detectUndecodedUtf16(misdecoded(sample, 'le', true))).toBe('UTF-16 LE');
    expect(detectUndecodedUtf16(misdecoded(sample, 'be', true))).toBe('UTF-16 BE');
    expect(detectUndecodedUtf16(misdecoded(sample, 'le', false))).toBe('UTF-16 LE');
    expect(detectUndecodedUtf16(misdecoded(sample, 'be', false))).toBe('UTF-16 BE');
  });

  it('says nothing about ordinary text', () => {
    expect(detectUndecodedUtf16(sample)).toBeUndefined();
    expect(detectUndecodedUtf16('日本語のテキストと絵文字 🎉 です')).toBeUndefined();
    expect(detectUndecodedUtf16('')).toBeUndefined();
  });
});

describe('sniffTextEncoding', () => {
  it('reads byte order marks and zero-byte patterns', () => {
    expect(sniffTextEncoding(utf16Bytes(sample, 'le', true))).toBe('utf-16le');
    expect(sniffTextEncoding(utf16Bytes(sample, 'be', true))).toBe('utf-16be');
    expect(sniffTextEncoding(utf16Bytes(sample, 'le', false))).toBe('utf-16le');
    expect(sniffTextEncoding(utf16Bytes(sample, 'be', false))).toBe('utf-16be');
    expect(sniffTextEncoding(new TextEncoder().encode(`\ufeff${sample}`))).toBe('utf-8');
    expect(sniffTextEncoding(new TextEncoder().encode('données 日本'))).toBe('utf-8');
  });

  it('decodes back to the original text with the sniffed encoding', () => {
    for (const order of ['le', 'be'] as const) {
      const bytes = utf16Bytes(sample, order, true);
      expect(new TextDecoder(sniffTextEncoding(bytes)).decode(bytes)).toBe(sample);
    }
  });
});

describe('importing a UTF-16 file decoded as UTF-8', () => {
  it('names the encoding instead of reporting an unexpected token', () => {
    const result = importTranscript(misdecoded(sample, 'le', true));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.message).toBe(
      'Transcript import: the file is UTF-16 LE text but was decoded as UTF-8 (expected a UTF-8 file, or a UTF-16 file read with its own encoding (save it as UTF-8 and import again))',
    );
  });

  it('reads a UTF-8 file with a byte order mark', () => {
    const result = importTranscript(`\ufeff${sample}`);
    expect(result.ok && result.value.transcript.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });
});
