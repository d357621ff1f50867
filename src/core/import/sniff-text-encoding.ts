/** The text encodings a transcript file is decoded with. */
export type TranscriptTextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** Bytes looked at to tell UTF-16 without a byte order mark. */
export const ENCODING_SNIFF_BYTES = 512;

/** Share of zero bytes in one position parity that only UTF-16 text (mostly ASCII) has. */
const ZERO_SHARE_OF_UTF16 = 0.3;

/**
 * The encoding of a file from its first bytes: a UTF-16 byte order mark (FF FE, FE FF), or
 * zero bytes in every other position (UTF-16 text without a mark: JSON and Markdown are mostly
 * ASCII); UTF-8 otherwise. A UTF-8 byte order mark is UTF-8, stripped by the decoder.
 *
 * @example
 * sniffTextEncoding(new Uint8Array([0xff, 0xfe, 0x7b, 0x00])) // → 'utf-16le'
 */
export function sniffTextEncoding(head: Uint8Array): TranscriptTextEncoding {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  const length = Math.min(head.length, ENCODING_SNIFF_BYTES) & ~1;
  if (length < 4) return 'utf-8';
  let zeroAtEven = 0;
  let zeroAtOdd = 0;
  for (let index = 0; index < length; index += 1) {
    if (head[index] !== 0) continue;
    if (index % 2 === 0) zeroAtEven += 1;
    else zeroAtOdd += 1;
  }
  const pairs = length / 2;
  if (zeroAtOdd >= pairs * ZERO_SHARE_OF_UTF16 && zeroAtEven === 0) return 'utf-16le';
  if (zeroAtEven >= pairs * ZERO_SHARE_OF_UTF16 && zeroAtOdd === 0) return 'utf-16be';
  return 'utf-8';
}
