// @vitest-environment jsdom
import { render } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { messageRoles } from '#core/lab/message-roles.ts';
import type { Message } from '#core/transcript/message.ts';
import TokenBar from '#ui/transcript/TokenBar.svelte';

const messages: Message[] = [
  { role: 'system', content: 'sys' },
  { role: 'user', content: 'a' },
  { role: 'assistant', content: 'b' },
  { role: 'assistant', content: 'c' },
  { role: 'tool', content: 'd', tool_call_id: 'x' },
];

describe('TokenBar', () => {
  it('merges consecutive messages of one role into one token-proportional segment', () => {
    const { container } = render(TokenBar, {
      props: { roles: messageRoles(messages), tokens: [10, 5, 20, 30, 35], total: 100 },
    });
    const segments = [...container.querySelectorAll<HTMLElement>('.segment')];
    expect(segments.map((segment) => segment.dataset.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(segments.map((segment) => segment.dataset.tokens)).toEqual(['10', '5', '50', '35']);
    expect(segments.map((segment) => segment.style.flexGrow)).toEqual(['10', '5', '50', '35']);
    expect(segments[2]!.dataset.start).toBe('2');
    expect(segments[2]!.dataset.end).toBe('4');
  });

  it('redraws its segments when the counts change, in place, dropping the ones no longer there', async () => {
    const { container, rerender } = render(TokenBar, {
      props: { roles: messageRoles(messages), tokens: [10, 5, 20, 30, 35], total: 100 },
    });
    const before = [...container.querySelectorAll<HTMLElement>('.segment')];
    await rerender({ roles: messageRoles(messages.slice(0, 3)), tokens: [40, 20, 40], total: 100 });
    const after = [...container.querySelectorAll<HTMLElement>('.segment')];
    expect(after.map((segment) => segment.dataset.role)).toEqual(['system', 'user', 'assistant']);
    expect(after.map((segment) => segment.style.flexGrow)).toEqual(['40', '20', '40']);
    expect(after[2]!.title).toBe('assistant · messages 2–2 · 40 tokens');
    expect(after[0]).toBe(before[0]);
  });

  it('shows each role share of the total in the legend', () => {
    const { getByText } = render(TokenBar, {
      props: { roles: messageRoles(messages), tokens: [10, 5, 20, 30, 35], total: 100 },
    });
    expect(getByText('50.0%')).toBeInTheDocument();
    expect(getByText('35.0%')).toBeInTheDocument();
  });
});

describe('TokenBar on long transcripts', () => {
  it('merges thousands of role runs into a bounded number of segments, keeping the legend exact', () => {
    const many: Message[] = Array.from({ length: 5000 }, (_, index) =>
      index % 2 === 0
        ? { role: 'assistant', content: 'a' }
        : { role: 'tool', content: 't', tool_call_id: 'x' },
    );
    const tokens = many.map((message) => (message.role === 'tool' ? 3 : 1));
    const { container, getByText } = render(TokenBar, {
      props: { roles: messageRoles(many), tokens, total: 10_000 },
    });
    const segments = [...container.querySelectorAll<HTMLElement>('.segment')];
    expect(segments.length).toBeLessThanOrEqual(240);
    expect(segments.reduce((sum, segment) => sum + Number(segment.dataset.tokens), 0)).toBe(10_000);
    expect(segments.every((segment) => segment.dataset.role === 'tool')).toBe(true);
    expect(getByText('75.0%')).toBeInTheDocument();
    expect(getByText('25.0%')).toBeInTheDocument();
  });
});
