// @vitest-environment jsdom
import { fireEvent, render } from '@testing-library/svelte';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import ContextMap from '#ui/map/ContextMap.svelte';
import { demoPlan } from './lab-plan-fixture.ts';

// jsdom has no layout; the map measures its width with a ResizeObserver (observe-size.ts).
beforeAll(() => {
  globalThis.ResizeObserver ??= class {
    observe(): void {}
    unobserve(): void {}
    disconnect(): void {}
  };
});

describe('ContextMap', () => {
  it('draws two foreign compaction points at the same message (a file with two boundary records)', () => {
    const plan = demoPlan();
    const marker = plan.compactionMarkers[0]!;
    const { getAllByTestId } = render(ContextMap, {
      props: {
        plan: { ...plan, compactionMarkers: [marker, { ...marker }] },
        messageAt: () => -1,
        roleOf: () => 'user',
        onJump: () => {},
      },
    });
    expect(getAllByTestId('map-marker-foreign').map((element) => element.dataset.index)).toEqual([
      String(marker.messageIndex),
      String(marker.messageIndex),
    ]);
  });

  it('draws one element per region from the plan, token-proportional on the axis', () => {
    const plan = demoPlan();
    const { container, getByTestId } = render(ContextMap, {
      props: { plan, messageAt: () => -1, roleOf: () => 'user', onJump: () => {} },
    });
    const regions = [...container.querySelectorAll<HTMLElement>('[data-region]')];
    expect(regions.map((region) => region.dataset.region)).toEqual([
      'system',
      'tools',
      'head',
      'middle',
      'tail',
    ]);
    expect(regions.map((region) => [Number(region.dataset.start), Number(region.dataset.end)])).toEqual(
      plan.regions.map((region) => [region.start, region.end]),
    );
    expect(regions.map((region) => Number(region.dataset.tokens))).toEqual(
      plan.regions.map((region) => region.tokens),
    );
    // The axis is max(window, transcript): the demo is shorter than a 200K window.
    expect(getByTestId('context-map').dataset.axisTokens).toBe('200000');
    const tail = plan.regions[4]!;
    expect(regions[4]!.style.width).toBe(`${(tail.tokens / 200_000) * 100}%`);
    expect(regions[4]!.style.left).toBe(`${(tail.offset / 200_000) * 100}%`);
    expect(getByTestId('map-marker-threshold').dataset.tokens).toBe('100000');
    expect(getByTestId('map-marker-threshold').style.left).toBe('50%');
    expect(getByTestId('map-marker-hygiene').style.left).toBe('85%');
    expect(getByTestId('map-marker-window').style.left).toBe('100%');
    expect(getByTestId('map-marker-foreign').getAttribute('title')).toContain(
      'Claude Code compact boundary before #10',
    );
    expect(plan.prunedSpans.length).toBeGreaterThan(0);
    expect(getByTestId('map-hatches').dataset.spans).toBe(String(plan.prunedSpans.length));
    // Four gradient stops per hatched stretch, placed on the same axis as the regions.
    const first = plan.prunedSpans[0]!;
    const mask = getByTestId('map-hatches').getAttribute('style') ?? '';
    expect(mask).toContain(`transparent ${(first.start / 200_000) * 100}%`);
  });

  it('spans the transcript when it is longer than the window', () => {
    const plan = demoPlan({ contextLength: 50_000 });
    const { getByTestId } = render(ContextMap, {
      props: { plan, messageAt: () => -1, roleOf: () => 'user', onJump: () => {} },
    });
    expect(Number(getByTestId('context-map').dataset.axisTokens)).toBe(plan.totalTokens);
    expect(getByTestId('context-map').textContent).toContain('× the window');
  });

  it('jumps to a region start from the keyboard', async () => {
    const plan = demoPlan();
    const onJump = vi.fn();
    const { container } = render(ContextMap, {
      props: { plan, messageAt: () => -1, roleOf: () => 'user', onJump },
    });
    const middle = container.querySelector<HTMLElement>('[data-region="middle"]')!;
    await fireEvent.keyDown(middle, { key: 'Enter' });
    expect(onJump).toHaveBeenCalledWith(plan.regions[3]!.start);
  });

  it('fits a short transcript by default and shows the window markers off the scale', () => {
    const plan = demoPlan({ contextLength: 2_000_000 });
    // The demo is well under a quarter of a 2M window.
    expect(plan.totalTokens).toBeLessThan(500_000);
    const { getByTestId } = render(ContextMap, {
      props: { plan, messageAt: () => -1, roleOf: () => 'user', onJump: () => {} },
    });
    const map = getByTestId('context-map');
    expect(map.dataset.zoom).toBe('fit');
    expect(map.dataset.axisTokens).toBe(String(plan.totalTokens));
    const tail = plan.regions[4]!;
    const region = map.querySelector<HTMLElement>('[data-region="tail"]')!;
    expect(region.style.left).toBe(`${(tail.offset / plan.totalTokens) * 100}%`);
    expect(getByTestId('map-marker-threshold').dataset.offScale).toBe('true');
    expect(map.querySelector('.lane-label.threshold')!.textContent).toContain('→');
    expect(getByTestId('map-legend-foreign').textContent).toBe('Claude Code compaction');
  });

  it('spans the window when asked, and asks for a zoom change', async () => {
    const plan = demoPlan({ contextLength: 2_000_000 });
    const onZoom = vi.fn();
    const { getByTestId } = render(ContextMap, {
      props: { plan, messageAt: () => -1, roleOf: () => 'user', onJump: () => {}, zoom: 'window', onZoom },
    });
    expect(getByTestId('context-map').dataset.axisTokens).toBe('2000000');
    expect(getByTestId('map-marker-threshold').dataset.offScale).toBe('false');
    await fireEvent.click(getByTestId('map-zoom-fit'));
    expect(onZoom).toHaveBeenCalledWith('fit');
  });

  it('highlights the message the list row under the pointer stands for', () => {
    const plan = demoPlan();
    const { getByTestId } = render(ContextMap, {
      props: {
        plan,
        messageAt: () => -1,
        roleOf: () => 'user',
        onJump: () => {},
        highlightIndex: 5,
        offsetOf: () => 50_000,
      },
    });
    const highlight = getByTestId('map-row-highlight');
    expect(highlight.dataset.index).toBe('5');
    expect(highlight.style.left).toBe('25%');
    expect(highlight.style.width).toBe(`${(plan.tokensPerMessage[5]! / 200_000) * 100}%`);
  });
});
