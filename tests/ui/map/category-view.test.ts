// @vitest-environment jsdom
import { render } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import CategoryView from '#ui/map/CategoryView.svelte';
import { demoPlan } from './lab-plan-fixture.ts';

describe('CategoryView', () => {
  it('draws one element per category with its tokens, in use adding up to the map total', () => {
    const plan = demoPlan();
    const { getByTestId } = render(CategoryView, {
      props: { categories: plan.categories, tokenBasis: plan.tokenBasis },
    });
    const view = getByTestId('category-view');
    const items = [...view.querySelectorAll<HTMLElement>('[data-category]')];
    expect(items.map((item) => item.dataset.category)).toEqual(plan.categories.categories.map((c) => c.id));
    const inUse = items
      .filter((item) => item.dataset.category !== 'free-space')
      .reduce((sum, item) => sum + Number(item.dataset.tokens), 0);
    expect(inUse).toBe(plan.totalTokens);
    expect(view.dataset.usedTokens).toBe(String(plan.totalTokens));
    expect(view.textContent).toContain('of 200,000 tokens');
  });

  it('fills 200 cells, half a percent of the window each', () => {
    const plan = demoPlan();
    const { container } = render(CategoryView, {
      props: { categories: plan.categories, tokenBasis: plan.tokenBasis },
    });
    const cells = container.querySelectorAll('.cell');
    expect(cells).toHaveLength(200);
    // Free cells are the window's unused share, rounded to whole cells.
    const freeShare = (plan.windowTokens - plan.totalTokens) / plan.windowTokens;
    expect(Math.abs(container.querySelectorAll('.cell.free').length - freeShare * 200)).toBeLessThanOrEqual(
      1,
    );
  });

  it('says why thinking is 0 on an exact basis', () => {
    const plan = demoPlan();
    const { getByTestId } = render(CategoryView, {
      props: { categories: { ...plan.categories, thinkingCounted: false }, tokenBasis: 'o200k_base' },
    });
    expect(getByTestId('category-view').textContent).toContain('thinking counts 0 here');
  });
});
