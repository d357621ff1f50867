// @vitest-environment jsdom
import { render } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import MarkdownView from '#ui/chat/MarkdownView.svelte';

describe('MarkdownView', () => {
  it('renders structure as elements and model text only as text', () => {
    const { container } = render(MarkdownView, {
      text:
        '# Heading\n\nSome **bold** and `code` with a [link](https://example.com).\n\n' +
        '```js\nconst x = "<b>";\n```\n\n' +
        '<img src=x onerror="window.hacked = 1"> and [bad](javascript:alert(1))\n\n| a | b |\n|---|---|\n| 1 | 2 |',
    });
    expect(container.querySelector('h1')?.textContent).toBe('Heading');
    expect(container.querySelector('strong')?.textContent).toBe('bold');
    expect(container.querySelector('pre code')?.textContent).toBe('const x = "<b>";');
    expect(container.querySelector('a')?.getAttribute('href')).toBe('https://example.com');
    expect(container.querySelectorAll('a')).toHaveLength(1);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="window.hacked = 1">');
    expect(container.textContent).toContain('[bad](javascript:alert(1))');
    expect(container.querySelectorAll('td')).toHaveLength(2);
  });

  it('keeps inline spacing around emphasis', () => {
    const { container } = render(MarkdownView, { text: 'one *two* three' });
    expect(container.querySelector('p')?.textContent).toBe('one two three');
  });
});
