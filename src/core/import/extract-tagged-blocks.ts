/**
 * Pulls `<tag>…</tag>` blocks out of text (Hermes trajectories: `<think>`, `<tool_call>`,
 * `<tool_response>`). An opening tag with no closing tag is left in place as text. A plain
 * scan, not a regular expression, so a huge or hostile value costs linear time.
 */
export function extractTaggedBlocks(text: string, tag: string): { blocks: string[]; rest: string } {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  const blocks: string[] = [];
  const kept: string[] = [];
  let position = 0;
  for (;;) {
    const start = text.indexOf(open, position);
    if (start === -1) break;
    const end = text.indexOf(close, start + open.length);
    if (end === -1) break;
    kept.push(text.slice(position, start));
    blocks.push(text.slice(start + open.length, end));
    position = end + close.length;
  }
  kept.push(text.slice(position));
  return { blocks, rest: kept.join('') };
}
