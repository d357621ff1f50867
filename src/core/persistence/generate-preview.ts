export interface ToolResultPreview {
  preview: string;
  hasMore: boolean;
}

/**
 * The head of a large result (`generate_preview`, hermes-reference §10): whole if it fits;
 * otherwise the first `maxChars` characters, cut after the last newline when that newline lies
 * in the second half. Lengths are in code points, like Python.
 */
export function generatePreview(content: string, maxChars: number): ToolResultPreview {
  const codePoints = Array.from(content);
  if (codePoints.length <= maxChars) return { preview: content, hasMore: false };
  const head = codePoints.slice(0, maxChars);
  const lastNewline = head.lastIndexOf('\n');
  const cut = lastNewline > Math.floor(maxChars / 2) ? lastNewline + 1 : maxChars;
  return { preview: head.slice(0, cut).join(''), hasMore: true };
}
