import { describe, expect, it } from 'vitest';
import { markdownCode, markdownInline } from '#core/export/markdown-inline.ts';

describe('markdownInline', () => {
  it('turns HTML into text and keeps ordinary ids readable', () => {
    expect(markdownInline('<img src=x onerror=alert(1)>')).toBe('&lt;img src=x onerror=alert(1)&gt;');
    expect(markdownInline('a & b')).toBe('a &amp; b');
    expect(markdownInline('toolu_01Read')).toBe('toolu_01Read');
    expect(markdownInline('claude-sonnet-4-5')).toBe('claude-sonnet-4-5');
  });

  it('cannot open emphasis, a link, a code span or a new block', () => {
    expect(markdownInline('*x* _y_ [z](http://e) `c` a|b')).toBe(
      '\\*x\\* \\_y\\_ \\[z\\](http://e) \\`c\\` a\\|b',
    );
    expect(markdownInline('title\n\n# injected')).toBe('title # injected');
  });
});

describe('markdownCode', () => {
  it('uses a fence longer than any backtick run inside', () => {
    expect(markdownCode('Bash')).toBe('`Bash`');
    expect(markdownCode('a`b')).toBe('``a`b``');
    expect(markdownCode('`x')).toBe('`` `x ``');
    expect(markdownCode('x\ny')).toBe('`x y`');
  });
});
