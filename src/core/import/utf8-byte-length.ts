/** Runs of characters outside ASCII: only they weigh more than one byte each. */
const NON_ASCII_RUN = /[^\x00-\x7f]+/g;

/**
 * UTF-8 size of a string without TextEncoder (core is ES2022 only). A surrogate pair is one
 * 4-byte character; a lone surrogate is written as U+FFFD, 3 bytes, as an encoder would.
 *
 * Every character is one byte to start with and only runs outside ASCII are walked: the regular
 * expression engine skips the ASCII between them natively. An import counts every chunk of the
 * file, and a character loop over all 100 MiB of an agent transcript (almost all ASCII) was a
 * tenth of the worker's parse.
 */
export function utf8ByteLength(text: string): number {
  let bytes = text.length;
  for (const run of text.matchAll(NON_ASCII_RUN)) bytes += extraBytes(run[0]);
  return bytes;
}

/** Bytes beyond one per UTF-16 unit for a run of non-ASCII units (surrogate pairs stay in one run). */
function extraBytes(run: string): number {
  let extra = 0;
  for (let index = 0; index < run.length; index += 1) {
    const code = run.charCodeAt(index);
    if (code < 0x800) {
      extra += 1;
    } else if (code >= 0xd800 && code <= 0xdbff && index + 1 < run.length) {
      const next = run.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        // Two UTF-16 units already counted as 2 bytes; the pair is 4.
        extra += 2;
        index += 1;
      } else extra += 2;
    } else extra += 2;
  }
  return extra;
}
