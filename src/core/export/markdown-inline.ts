/**
 * Escapes a metadata value (a title, a model name, an id, a label) for a line of Markdown:
 * HTML's `&`, `<` and `>` become entities, so no renderer reads a tag or an event handler out
 * of it; the Markdown punctuation that opens emphasis, a link or a code span is
 * backslash-escaped (`_` only at a word's edge, where it can emphasise); line breaks become
 * spaces, so it cannot start a block of its own. Ids like `toolu_01` and `claude-code` stay
 * as they are.
 *
 * @example
 * markdownInline('<img src=x onerror=alert(1)>') // → '&lt;img src=x onerror=alert(1)&gt;'
 */
export function markdownInline(value: string): string {
  return value
    .replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*[\]|]/g, (char) => `\\${char}`)
    .replace(/(^|[^\p{L}\p{N}])_|_(?=[^\p{L}\p{N}]|$)/gu, (match) => match.replace('_', '\\_'))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * A value as a Markdown code span: a backtick run longer than any inside, padded when the value
 * starts or ends with a backtick. Inside a code span nothing is HTML or Markdown.
 */
export function markdownCode(value: string): string {
  const flat = value.replace(/[\r\n]+/g, ' ');
  let longestRun = 0;
  for (const run of flat.match(/`+/g) ?? []) longestRun = Math.max(longestRun, run.length);
  const fence = '`'.repeat(longestRun + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat === '' ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}
