/**
 * How much of one text fact extraction reads. Extraction must stay linear and fast (10,000
 * messages under 200 ms, SPEC §7), and a single tool result can be a 100 KB log or a 10 MB
 * unbroken string. So every text is read only at its start and its end: errors cluster at
 * both (a compiler stops at the first ones; pytest and tracebacks end with the summary line),
 * and a fact only in the middle of a huge dump is lost to the score, on purpose.
 */
export const SCAN_HEAD_CHARACTERS = 4_096;
export const SCAN_TAIL_CHARACTERS = 4_096;

/**
 * The parts of `text` that extraction reads: the whole text when it is short, else its first
 * `SCAN_HEAD_CHARACTERS` and its last `SCAN_TAIL_CHARACTERS` as two separate windows, so no
 * pattern matches across the gap.
 *
 * @example scanWindows("x".repeat(20_000)).map((window) => window.length) // [4096, 4096]
 */
export function scanWindows(text: string): string[] {
  if (text.length <= SCAN_HEAD_CHARACTERS + SCAN_TAIL_CHARACTERS) return text === '' ? [] : [text];
  return [text.slice(0, SCAN_HEAD_CHARACTERS), text.slice(text.length - SCAN_TAIL_CHARACTERS)];
}
