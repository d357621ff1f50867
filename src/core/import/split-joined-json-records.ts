/**
 * The texts of two or more JSON objects written on one line with nothing but whitespace
 * between them (Claude Code sometimes appends a record without its newline), or undefined when
 * the line is anything else. One linear scan that respects strings and escapes; objects only,
 * since every JSONL record is one.
 */
export function splitJoinedJsonRecords(line: string): string[] | undefined {
  const pieces: string[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line.charCodeAt(index);
    if (inString) {
      if (escaped) escaped = false;
      else if (char === BACKSLASH) escaped = true;
      else if (char === QUOTE) inString = false;
      continue;
    }
    if (depth === 0) {
      if (char === OPEN_BRACE) {
        start = index;
        depth = 1;
      } else if (!isJsonWhitespace(char)) return undefined;
      continue;
    }
    if (char === QUOTE) inString = true;
    else if (char === OPEN_BRACE || char === OPEN_BRACKET) depth += 1;
    else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) {
      depth -= 1;
      if (depth === 0) pieces.push(line.slice(start, index + 1));
    }
  }
  return depth === 0 && !inString && pieces.length >= 2 ? pieces : undefined;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const isJsonWhitespace = (char: number): boolean =>
  char === 0x20 || char === 0x09 || char === 0x0a || char === 0x0d;
