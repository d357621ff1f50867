/**
 * Block-level Markdown for chat replies: fenced code, ATX headings, thematic breaks,
 * blockquotes, bullet and ordered lists (nested by indentation), GFM tables, paragraphs.
 * Raw HTML is not a construct here: `<div>` is just text. Streaming-friendly: an unclosed
 * fence renders as an open code block rather than swallowing nothing.
 *
 * @example
 * parseMarkdown('# Title\n\n```ts\nconst x = 1;\n```')
 * // [{ type: 'heading', level: 1, … }, { type: 'code-block', language: 'ts', text: 'const x = 1;', closed: true }]
 */
import type { MarkdownBlock, MarkdownInline, TableAlignment } from './markdown-node.ts';
import { parseInlineMarkdown } from './parse-inline-markdown.ts';

const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const BLOCKQUOTE = /^ {0,3}> ?/;
const LIST_ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+|$)(.*)$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
/** Nesting deeper than this is rendered as text, so hostile input cannot blow the stack. */
const MAX_NESTING_DEPTH = 12;

export function parseMarkdown(text: string): MarkdownBlock[] {
  return parseBlocks(text.replace(/\r\n?/g, '\n').split('\n'), 0);
}

const isBlank = (line: string): boolean => line.trim() === '';
const indentOf = (line: string): number => /^ */.exec(line.replace(/\t/g, '    '))![0].length;

function startsBlock(line: string): boolean {
  return (
    FENCE.test(line) ||
    HEADING.test(line) ||
    THEMATIC_BREAK.test(line) ||
    BLOCKQUOTE.test(line) ||
    (LIST_ITEM.test(line) && !isBlank(LIST_ITEM.exec(line)![4]!))
  );
}

function parseBlocks(lines: readonly string[], depth: number): MarkdownBlock[] {
  if (depth > MAX_NESTING_DEPTH) {
    return [{ type: 'paragraph', children: [{ type: 'text', text: lines.join('\n') }] }];
  }
  const blocks: MarkdownBlock[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    if (isBlank(line)) {
      index += 1;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const marker = fence[2]!;
      const body: string[] = [];
      let closed = false;
      index += 1;
      while (index < lines.length) {
        const candidate = lines[index]!;
        const trimmed = candidate.trim();
        if (trimmed.startsWith(marker[0]!.repeat(marker.length)) && /^(`+|~+)$/.test(trimmed)) {
          closed = true;
          index += 1;
          break;
        }
        body.push(candidate.slice(Math.min(fence[1]!.length, indentOf(candidate))));
        index += 1;
      }
      blocks.push({ type: 'code-block', language: fence[3] || null, text: body.join('\n'), closed });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = heading[1]!.length as 1 | 2 | 3 | 4 | 5 | 6;
      blocks.push({ type: 'heading', level, children: parseInlineMarkdown(heading[2] ?? '') });
      index += 1;
      continue;
    }
    if (THEMATIC_BREAK.test(line)) {
      blocks.push({ type: 'thematic-break' });
      index += 1;
      continue;
    }
    if (BLOCKQUOTE.test(line)) {
      const quoted: string[] = [];
      while (index < lines.length && !isBlank(lines[index]!)) {
        const current = lines[index]!;
        if (BLOCKQUOTE.test(current)) quoted.push(current.replace(BLOCKQUOTE, ''));
        else if (startsBlock(current)) break;
        else quoted.push(current);
        index += 1;
      }
      blocks.push({ type: 'blockquote', children: parseBlocks(quoted, depth + 1) });
      continue;
    }
    const listItem = LIST_ITEM.exec(line);
    if (listItem && !isBlank(listItem[4]!)) {
      const parsed = parseList(lines, index, depth);
      blocks.push(parsed.block);
      index = parsed.next;
      continue;
    }
    const next = lines[index + 1];
    if (line.includes('|') && next !== undefined && TABLE_SEPARATOR.test(next) && next.includes('-')) {
      const parsed = parseTable(lines, index);
      if (parsed) {
        blocks.push(parsed.block);
        index = parsed.next;
        continue;
      }
    }
    const paragraph: string[] = [];
    while (
      index < lines.length &&
      !isBlank(lines[index]!) &&
      (paragraph.length === 0 || !startsBlock(lines[index]!))
    ) {
      paragraph.push(lines[index]!.trim());
      index += 1;
    }
    blocks.push({ type: 'paragraph', children: parseInlineMarkdown(paragraph.join('\n')) });
  }
  return blocks;
}

function parseList(
  lines: readonly string[],
  start: number,
  depth: number,
): { block: MarkdownBlock; next: number } {
  const first = LIST_ITEM.exec(lines[start]!)!;
  const ordered = /\d/.test(first[2]!);
  const startNumber = ordered ? Number.parseInt(first[2]!, 10) : 1;
  const items: MarkdownBlock[][] = [];
  let index = start;
  while (index < lines.length) {
    const match = LIST_ITEM.exec(lines[index]!);
    if (!match || /\d/.test(match[2]!) !== ordered || isBlank(match[4]!)) break;
    const spacing = Math.min(Math.max(match[3]!.length, 1), 4);
    const contentIndent = match[1]!.length + match[2]!.length + spacing;
    const itemLines = [match[4]!];
    index += 1;
    while (index < lines.length) {
      const line = lines[index]!;
      if (isBlank(line)) {
        const following = lines.slice(index + 1).find((candidate) => !isBlank(candidate));
        if (following !== undefined && indentOf(following) >= contentIndent) {
          itemLines.push('');
          index += 1;
          continue;
        }
        break;
      }
      if (indentOf(line) >= contentIndent) {
        itemLines.push(line.replace(/\t/g, '    ').slice(contentIndent));
        index += 1;
        continue;
      }
      if (LIST_ITEM.test(line) || startsBlock(line)) break;
      itemLines.push(line.trim());
      index += 1;
    }
    items.push(parseBlocks(itemLines, depth + 1));
    // A blank line between items keeps the list going when another item of the same kind follows.
    let lookahead = index;
    while (lookahead < lines.length && isBlank(lines[lookahead]!)) lookahead += 1;
    const sibling = lookahead < lines.length ? LIST_ITEM.exec(lines[lookahead]!) : null;
    if (lookahead > index && sibling && /\d/.test(sibling[2]!) === ordered) index = lookahead;
  }
  return { block: { type: 'list', ordered, start: startNumber, items }, next: index };
}

function splitRow(line: string): string[] {
  let trimmed = line.trim();
  if (trimmed.startsWith('|')) trimmed = trimmed.slice(1);
  if (trimmed.endsWith('|') && !trimmed.endsWith('\\|')) trimmed = trimmed.slice(0, -1);
  const cells: string[] = [];
  let current = '';
  for (let index = 0; index < trimmed.length; index++) {
    const character = trimmed[index]!;
    if (character === '\\' && trimmed[index + 1] === '|') {
      current += '|';
      index += 1;
    } else if (character === '|') {
      cells.push(current.trim());
      current = '';
    } else current += character;
  }
  cells.push(current.trim());
  return cells;
}

function parseTable(lines: readonly string[], start: number): { block: MarkdownBlock; next: number } | null {
  const headerCells = splitRow(lines[start]!);
  const alignments: TableAlignment[] = splitRow(lines[start + 1]!).map((cell) => {
    const left = cell.startsWith(':');
    const right = cell.endsWith(':');
    return left && right ? 'center' : right ? 'right' : left ? 'left' : null;
  });
  if (alignments.length !== headerCells.length) return null;
  const rows: MarkdownInline[][][] = [];
  let index = start + 2;
  while (index < lines.length && !isBlank(lines[index]!) && lines[index]!.includes('|')) {
    const cells = splitRow(lines[index]!);
    rows.push(headerCells.map((_, column) => parseInlineMarkdown(cells[column] ?? '')));
    index += 1;
  }
  return {
    block: { type: 'table', header: headerCells.map((cell) => parseInlineMarkdown(cell)), alignments, rows },
    next: index,
  };
}
