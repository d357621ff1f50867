/**
 * The Markdown tree the chat renders model replies from. A tree, not HTML: the UI draws each
 * node as a Svelte element, so model text only ever becomes text nodes and attribute values
 * (escaped by Svelte), and there is no raw-HTML path at all.
 */
export type MarkdownInline =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'code'; readonly text: string }
  | { readonly type: 'strong'; readonly children: readonly MarkdownInline[] }
  | { readonly type: 'emphasis'; readonly children: readonly MarkdownInline[] }
  | { readonly type: 'strikethrough'; readonly children: readonly MarkdownInline[] }
  /** `href` is always an http(s) or mailto URL; anything else stays text. */
  | { readonly type: 'link'; readonly href: string; readonly children: readonly MarkdownInline[] }
  | { readonly type: 'line-break' };

export type TableAlignment = 'left' | 'center' | 'right' | null;

export type MarkdownBlock =
  | { readonly type: 'paragraph'; readonly children: readonly MarkdownInline[] }
  | {
      readonly type: 'heading';
      readonly level: 1 | 2 | 3 | 4 | 5 | 6;
      readonly children: readonly MarkdownInline[];
    }
  /** `closed` is false while a streamed reply has not yet sent the closing fence. */
  | {
      readonly type: 'code-block';
      readonly language: string | null;
      readonly text: string;
      readonly closed: boolean;
    }
  | {
      readonly type: 'list';
      readonly ordered: boolean;
      readonly start: number;
      readonly items: readonly (readonly MarkdownBlock[])[];
    }
  | { readonly type: 'blockquote'; readonly children: readonly MarkdownBlock[] }
  | {
      readonly type: 'table';
      readonly header: readonly (readonly MarkdownInline[])[];
      readonly alignments: readonly TableAlignment[];
      readonly rows: readonly (readonly (readonly MarkdownInline[])[])[];
    }
  | { readonly type: 'thematic-break' };
