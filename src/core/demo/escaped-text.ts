/**
 * Text kept in its JSON-escaped form (the inside of a JSON string literal) together with the
 * offsets where its lines start. Generated transcripts are built by slicing these at line
 * boundaries and pasting the slices into JSON documents, so a slice never cuts an escape
 * sequence in half and no per-use escaping is needed. V8 keeps such slices as views of the
 * pool string, which is what keeps 50,000-message transcripts cheap in memory.
 */
export interface EscapedText {
  /** The escaped text; lines are separated by the two characters `\n`. */
  readonly escaped: string;
  /** `lineStarts[i]` is where line i starts; `lineStarts[lineCount]` is `escaped.length + 2`. */
  readonly lineStarts: Int32Array;
  readonly lineCount: number;
}

/** Escapes `lines` for a JSON string and records where each line starts. */
export function toEscapedText(lines: readonly string[]): EscapedText {
  const parts: string[] = [];
  const lineStarts = new Int32Array(lines.length + 1);
  let offset = 0;
  lines.forEach((line, index) => {
    const escapedLine = escapeJsonString(line);
    lineStarts[index] = offset;
    parts.push(escapedLine);
    offset += escapedLine.length + 2;
  });
  lineStarts[lines.length] = offset;
  return { escaped: parts.join('\\n'), lineStarts, lineCount: lines.length };
}

/**
 * Lines [startLine, endLine) as escaped text, without a trailing newline escape.
 * Both bounds are clamped to the text.
 */
export function sliceLines(text: EscapedText, startLine: number, endLine: number): string {
  const start = Math.max(0, Math.min(startLine, text.lineCount));
  const end = Math.max(start, Math.min(endLine, text.lineCount));
  if (end === start) return '';
  return text.escaped.slice(text.lineStarts[start], (text.lineStarts[end] ?? 2) - 2);
}

/** The first line index whose start is at or after `characterOffset` (binary search). */
export function lineAtOffset(text: EscapedText, characterOffset: number): number {
  let low = 0;
  let high = text.lineCount;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((text.lineStarts[middle] ?? 0) < characterOffset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The inside of `JSON.stringify(text)`: quotes, backslashes and control characters escaped. */
export function escapeJsonString(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
