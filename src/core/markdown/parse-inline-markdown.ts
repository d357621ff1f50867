/**
 * Inline Markdown (code spans, strong, emphasis, strikethrough, links, autolinks, line breaks)
 * as a node list. A small subset of CommonMark/GFM that covers what chat models write; anything
 * it does not recognise stays literal text. Linear apart from the search for closing delimiters.
 */
import type { MarkdownInline } from './markdown-node.ts';

const ESCAPABLE = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/;
const BARE_URL = /^https?:\/\/[^\s<>]*[^\s<>.,:;"'!?)\]]/;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/** Only these schemes become links; `javascript:`, `data:` and relative URLs stay text. */
export function safeHref(url: string): string | null {
  const trimmed = url.trim();
  return /^(https?:\/\/|mailto:)[^\s]+$/i.test(trimmed) ? trimmed : null;
}

export function parseInlineMarkdown(text: string): MarkdownInline[] {
  const nodes: MarkdownInline[] = [];
  let buffer = '';
  const flush = (): void => {
    if (buffer !== '') nodes.push({ type: 'text', text: buffer });
    buffer = '';
  };
  let index = 0;
  while (index < text.length) {
    const character = text[index]!;
    const rest = text.slice(index);

    if (character === '\\' && index + 1 < text.length && ESCAPABLE.test(text[index + 1]!)) {
      buffer += text[index + 1];
      index += 2;
      continue;
    }
    if (character === '\n') {
      flush();
      nodes.push({ type: 'line-break' });
      index += 1;
      continue;
    }
    if (character === '`') {
      const run = /^`+/.exec(rest)![0];
      const close = findBacktickRun(text, index + run.length, run.length);
      if (close >= 0) {
        flush();
        let code = text.slice(index + run.length, close).replace(/\n/g, ' ');
        if (code.length >= 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '')
          code = code.slice(1, -1);
        nodes.push({ type: 'code', text: code });
        index = close + run.length;
        continue;
      }
      buffer += run;
      index += run.length;
      continue;
    }
    if (rest.startsWith('**') || rest.startsWith('__') || rest.startsWith('~~')) {
      const delimiter = rest.slice(0, 2);
      const span = delimitedSpan(text, index, delimiter);
      if (span) {
        flush();
        const children = parseInlineMarkdown(span.inner);
        nodes.push(delimiter === '~~' ? { type: 'strikethrough', children } : { type: 'strong', children });
        index = span.end;
        continue;
      }
    } else if (character === '*' || character === '_') {
      const span = delimitedSpan(text, index, character);
      if (span) {
        flush();
        nodes.push({ type: 'emphasis', children: parseInlineMarkdown(span.inner) });
        index = span.end;
        continue;
      }
    }
    if (character === '[') {
      const link = linkAt(text, index);
      if (link) {
        flush();
        nodes.push({ type: 'link', href: link.href, children: parseInlineMarkdown(link.label) });
        index = link.end;
        continue;
      }
    }
    if (character === '<') {
      const autolink = /^<((?:https?:\/\/|mailto:)[^\s<>]+)>/i.exec(rest);
      const href = autolink ? safeHref(autolink[1]!) : null;
      if (autolink && href) {
        flush();
        nodes.push({ type: 'link', href, children: [{ type: 'text', text: autolink[1]! }] });
        index += autolink[0].length;
        continue;
      }
    }
    if ((character === 'h' || character === 'H') && !WORD_CHARACTER.test(text[index - 1] ?? ' ')) {
      const bare = BARE_URL.exec(rest);
      if (bare) {
        flush();
        nodes.push({ type: 'link', href: bare[0], children: [{ type: 'text', text: bare[0] }] });
        index += bare[0].length;
        continue;
      }
    }
    buffer += character;
    index += 1;
  }
  flush();
  return nodes;
}

function findBacktickRun(text: string, from: number, length: number): number {
  let index = text.indexOf('`', from);
  while (index >= 0) {
    let end = index;
    while (text[end] === '`') end += 1;
    if (end - index === length) return index;
    index = text.indexOf('`', end);
  }
  return -1;
}

/**
 * A span opened by `delimiter` at `start`: the opener must be followed by a non-space, the
 * closer preceded by one; `_` only opens and closes at word boundaries (so `snake_case` stays).
 */
function delimitedSpan(
  text: string,
  start: number,
  delimiter: string,
): { inner: string; end: number } | null {
  const open = start + delimiter.length;
  const after = text[open];
  if (after === undefined || /\s/.test(after)) return null;
  const underscore = delimiter.startsWith('_');
  if (underscore && WORD_CHARACTER.test(text[start - 1] ?? ' ')) return null;
  let search = open;
  while (true) {
    const close = text.indexOf(delimiter, search + (search === open ? 1 : 0));
    if (close < 0) return null;
    const before = text[close - 1]!;
    const next = text[close + delimiter.length];
    const single = delimiter.length === 1;
    const doubledCloser = single && next === delimiter;
    const wordAfter = underscore && next !== undefined && WORD_CHARACTER.test(next);
    if (!/\s/.test(before) && !doubledCloser && !wordAfter && !text.slice(open, close).includes('\n\n')) {
      return { inner: text.slice(open, close), end: close + delimiter.length };
    }
    search = doubledCloser ? close + 2 : close + 1;
  }
}

/** `[label](url)` with balanced brackets in the label and a safe URL (an optional "title" is dropped). */
function linkAt(text: string, start: number): { label: string; href: string; end: number } | null {
  let depth = 0;
  let labelEnd = -1;
  for (let index = start; index < text.length; index++) {
    const character = text[index];
    if (character === '\\') {
      index += 1;
      continue;
    }
    if (character === '\n' && text[index + 1] === '\n') return null;
    if (character === '[') depth += 1;
    else if (character === ']') {
      depth -= 1;
      if (depth === 0) {
        labelEnd = index;
        break;
      }
    }
  }
  if (labelEnd < 0 || text[labelEnd + 1] !== '(') return null;
  const target = /^\(\s*<?([^\s()<>]+)>?(?:\s+"[^"]*")?\s*\)/.exec(text.slice(labelEnd + 1));
  if (!target) return null;
  const href = safeHref(target[1]!);
  if (!href) return null;
  return { label: text.slice(start + 1, labelEnd), href, end: labelEnd + 1 + target[0].length };
}
