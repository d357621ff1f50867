/**
 * The line of a JSON.parse failure, read from the engine's message: V8 says "at position 123"
 * (newer versions "(line 3 column 5)", and "Unexpected end of JSON input" for a truncated
 * document, which fails on its last line). Undefined when the message names none of these.
 */
export function locateJsonSyntaxError(text: string, parserMessage: string): number | undefined {
  const lineMatch = /\(line (\d+) column \d+\)/.exec(parserMessage);
  if (lineMatch) return Number(lineMatch[1]);
  const positionMatch = /at position (\d+)/.exec(parserMessage);
  // A truncated document fails at its very end.
  const position = positionMatch
    ? Math.min(Number(positionMatch[1]), text.length)
    : /end of JSON input/i.test(parserMessage)
      ? text.trimEnd().length
      : undefined;
  if (position === undefined) return undefined;
  let line = 1;
  for (
    let index = text.indexOf('\n');
    index !== -1 && index < position;
    index = text.indexOf('\n', index + 1)
  ) {
    line += 1;
  }
  return line;
}

/** Drops a leading UTF-8 byte order mark, which JSON.parse rejects. */
export const stripByteOrderMark = (text: string): string =>
  text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
