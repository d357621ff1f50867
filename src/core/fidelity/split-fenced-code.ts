export interface FencedText {
  /** The text outside fenced blocks, the blocks' places kept as line breaks. */
  prose: string;
  /** The bodies of the fenced blocks (without the fence lines). */
  code: string[];
}

/**
 * Separates Markdown fenced code blocks (```` ``` ```` … ```` ``` ````) from the prose around
 * them, so prose rules (decisions, identifiers in backticks) and code rules (declarations) each
 * read their own part. An unclosed fence runs to the end of the text.
 *
 * @example splitFencedCode('Run:\n```sh\nnpm test\n```\ndone').code // ['npm test\n']
 */
export function splitFencedCode(text: string): FencedText {
  if (!text.includes('```')) return { prose: text, code: [] };
  const prose: string[] = [];
  const code: string[] = [];
  let from = 0;
  for (;;) {
    const open = text.indexOf('```', from);
    if (open === -1) {
      prose.push(text.slice(from));
      break;
    }
    prose.push(text.slice(from, open));
    const bodyStart = text.indexOf('\n', open);
    if (bodyStart === -1) break;
    const close = text.indexOf('```', bodyStart + 1);
    code.push(text.slice(bodyStart + 1, close === -1 ? text.length : close));
    if (close === -1) break;
    from = close + 3;
  }
  return { prose: prose.join('\n'), code };
}
