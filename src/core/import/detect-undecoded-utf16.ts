/** Characters looked at: a UTF-16 file read as UTF-8 shows itself at once. */
const INSPECTED_CHARS = 256;

/**
 * Which UTF-16 byte order a text came from when it was decoded as UTF-8 by mistake: its byte
 * order mark became replacement characters, and every ASCII character is followed (little
 * endian) or preceded (big endian) by a NUL. Undefined for any other text.
 */
export function detectUndecodedUtf16(text: string): 'UTF-16 LE' | 'UTF-16 BE' | undefined {
  let start = 0;
  while (start < 2 && text.charCodeAt(start) === 0xfffd) start += 1;
  const end = Math.min(text.length, start + INSPECTED_CHARS);
  if (end - start < 4) return undefined;
  let nulAtOdd = 0;
  let nulAtEven = 0;
  for (let index = start; index < end; index += 1) {
    if (text.charCodeAt(index) !== 0) continue;
    if ((index - start) % 2 === 1) nulAtOdd += 1;
    else nulAtEven += 1;
  }
  const pairs = Math.floor((end - start) / 2);
  if (nulAtOdd > pairs * 0.3 && nulAtEven === 0) return 'UTF-16 LE';
  if (nulAtEven > pairs * 0.3 && nulAtOdd === 0) return 'UTF-16 BE';
  return undefined;
}
