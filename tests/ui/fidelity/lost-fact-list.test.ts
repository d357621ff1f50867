// @vitest-environment jsdom
import { fireEvent, render } from '@testing-library/svelte';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Fact } from '#core/fidelity/fact.ts';
import LostFactList from '#ui/fidelity/LostFactList.svelte';

const fact = (kind: Fact['kind'], text: string, messageIndex: number): Fact => ({
  kind,
  text,
  display: text,
  messageIndex,
  count: 1,
});

// jsdom has no layout; the virtual list measures its height with bind:clientHeight (a ResizeObserver).
beforeAll(() => {
  globalThis.ResizeObserver ??= class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
});

// A long session's loss: 5,000 paths and one ask.
const paths = Array.from({ length: 5_000 }, (_, index) => fact('path', `src/module-${index}.ts`, index * 2));
const facts = [...paths, fact('ask', 'keep the parser', 3)];

describe('LostFactList', () => {
  it('shows the first 40 of a long kind, then all of it as a virtual list, never 5,000 rows at once', async () => {
    const jumps: number[] = [];
    const { getByTestId, getByText } = render(LostFactList, {
      facts,
      onJump: (index: number) => jumps.push(index),
      testid: 'lost',
      empty: 'None.',
    });
    const list = getByTestId('lost');
    const pathGroup = list.querySelector('[data-kind="path"]')!;
    expect(pathGroup.querySelectorAll('[data-testid="lost-fact"]')).toHaveLength(40);
    expect(list.querySelector('[data-kind="ask"]')!.textContent).toContain('keep the parser');

    await fireEvent.click(getByText('Show all 5,000'));
    const virtual = pathGroup.querySelector('[role="table"]')!;
    expect(virtual.getAttribute('aria-rowcount')).toBe('5000');
    const drawn = pathGroup.querySelectorAll('[data-testid="lost-fact"]');
    // jsdom has no layout: the list draws its default viewport and overscan, a few dozen rows.
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.length).toBeLessThan(100);
    expect(drawn[0]!.textContent).toContain('src/module-0.ts');
    // Scrolled to the end (jsdom lays out no viewport: the rows drawn end where the scroll is),
    // the last facts are drawn and still open their message.
    virtual.scrollTop = 5_000 * 20;
    await fireEvent.scroll(virtual);
    const last = [...pathGroup.querySelectorAll('[data-testid="lost-fact"]')].at(-1)!;
    expect(last.textContent).toContain('src/module-4999.ts');
    await fireEvent.click(last.querySelector('[data-testid="lost-fact-open"]')!);
    expect(jumps).toEqual([9_998]);
  });
});
