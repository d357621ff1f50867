/**
 * UTF-8 size of a string without TextEncoder (core is ES2022 only). A surrogate pair is one
 * 4-byte character; a lone surrogate is written as U+FFFD, 3 bytes, as an encoder would.
 */
export function utf8ByteLength(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) continue;
    if (code < 0x800) {
      bytes += 1;
    } else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        // Two UTF-16 units already counted as 2 bytes; the pair is 4.
        bytes += 2;
        index += 1;
      } else bytes += 2;
    } else bytes += 2;
  }
  return bytes;
}
