import { describe, expect, it } from 'vitest';
import { parseInlineMarkdown, safeHref } from '#core/markdown/parse-inline-markdown.ts';
import { parseMarkdown } from '#core/markdown/parse-markdown.ts';

describe('parseMarkdown', () => {
  it('reads headings, paragraphs, fenced code and thematic breaks', () => {
    expect(
      parseMarkdown('# Title\n\nSome *text*.\n\n```ts\nconst a = 1;\n  indented();\n```\n\n---'),
    ).toEqual([
      { type: 'heading', level: 1, children: [{ type: 'text', text: 'Title' }] },
      {
        type: 'paragraph',
        children: [
          { type: 'text', text: 'Some ' },
          { type: 'emphasis', children: [{ type: 'text', text: 'text' }] },
          { type: 'text', text: '.' },
        ],
      },
      { type: 'code-block', language: 'ts', text: 'const a = 1;\n  indented();', closed: true },
      { type: 'thematic-break' },
    ]);
  });

  it('keeps an unclosed fence open while a reply streams', () => {
    expect(parseMarkdown('Look:\n```py\nprint(1)')).toEqual([
      { type: 'paragraph', children: [{ type: 'text', text: 'Look:' }] },
      { type: 'code-block', language: 'py', text: 'print(1)', closed: false },
    ]);
  });

  it('reads nested lists, ordered lists with a start, and blockquotes', () => {
    const [list, ordered, quote] = parseMarkdown(
      '- one\n  - inner\n- two\n\n3. three\n4. four\n\n> quoted\n> text',
    );
    expect(list).toEqual({
      type: 'list',
      ordered: false,
      start: 1,
      items: [
        [
          { type: 'paragraph', children: [{ type: 'text', text: 'one' }] },
          {
            type: 'list',
            ordered: false,
            start: 1,
            items: [[{ type: 'paragraph', children: [{ type: 'text', text: 'inner' }] }]],
          },
        ],
        [{ type: 'paragraph', children: [{ type: 'text', text: 'two' }] }],
      ],
    });
    expect(ordered).toMatchObject({ type: 'list', ordered: true, start: 3 });
    expect(quote).toMatchObject({ type: 'blockquote', children: [{ type: 'paragraph' }] });
  });

  it('reads GFM tables with alignment', () => {
    expect(parseMarkdown('| a | b |\n|:--|--:|\n| 1 | `x\\|y` |')).toEqual([
      {
        type: 'table',
        header: [[{ type: 'text', text: 'a' }], [{ type: 'text', text: 'b' }]],
        alignments: ['left', 'right'],
        rows: [[[{ type: 'text', text: '1' }], [{ type: 'code', text: 'x|y' }]]],
      },
    ]);
  });

  it('treats raw HTML as text', () => {
    expect(parseMarkdown('<img src=x onerror=alert(1)>')).toEqual([
      { type: 'paragraph', children: [{ type: 'text', text: '<img src=x onerror=alert(1)>' }] },
    ]);
  });

  it('survives deeply nested quotes without recursing forever', () => {
    const blocks = parseMarkdown('>'.repeat(5000) + ' deep');
    expect(blocks).toHaveLength(1);
  });
});

describe('parseInlineMarkdown', () => {
  it('reads code spans, strong, strikethrough and line breaks', () => {
    expect(parseInlineMarkdown('a `b*c` **d** ~~e~~\nf')).toEqual([
      { type: 'text', text: 'a ' },
      { type: 'code', text: 'b*c' },
      { type: 'text', text: ' ' },
      { type: 'strong', children: [{ type: 'text', text: 'd' }] },
      { type: 'text', text: ' ' },
      { type: 'strikethrough', children: [{ type: 'text', text: 'e' }] },
      { type: 'line-break' },
      { type: 'text', text: 'f' },
    ]);
  });

  it('leaves snake_case and lone stars alone', () => {
    expect(parseInlineMarkdown('use snake_case_names and 2 * 3 * 4')).toEqual([
      { type: 'text', text: 'use snake_case_names and 2 * 3 * 4' },
    ]);
  });

  it('makes links only of http(s) and mailto URLs', () => {
    expect(parseInlineMarkdown('[docs](https://example.com/a?b=1)')).toEqual([
      { type: 'link', href: 'https://example.com/a?b=1', children: [{ type: 'text', text: 'docs' }] },
    ]);
    expect(parseInlineMarkdown('[click](javascript:alert(1))')).toEqual([
      { type: 'text', text: '[click](javascript:alert(1))' },
    ]);
    expect(parseInlineMarkdown('see https://example.com/x.')).toEqual([
      { type: 'text', text: 'see ' },
      {
        type: 'link',
        href: 'https://example.com/x',
        children: [{ type: 'text', text: 'https://example.com/x' }],
      },
      { type: 'text', text: '.' },
    ]);
    expect(safeHref(' data:text/html,x')).toBeNull();
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
  });

  it('honours backslash escapes', () => {
    expect(parseInlineMarkdown('\\*not em\\*')).toEqual([{ type: 'text', text: '*not em*' }]);
  });
});
