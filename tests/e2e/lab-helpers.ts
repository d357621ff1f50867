import { expect, type Page } from '@playwright/test';

export interface RegionAttributes {
  region: string;
  start: number;
  end: number;
  tokens: number;
}

/** The context map's five regions, as their data attributes say. */
export async function readRegions(page: Page): Promise<RegionAttributes[]> {
  return page
    .getByTestId('context-map')
    .locator('[data-region]')
    .evaluateAll((elements) =>
      elements.map((element) => ({
        region: element.getAttribute('data-region') ?? '',
        start: Number(element.getAttribute('data-start')),
        end: Number(element.getAttribute('data-end')),
        tokens: Number(element.getAttribute('data-tokens')),
      })),
    );
}

export async function messageCount(page: Page): Promise<number> {
  return Number((await page.getByTestId('message-count').textContent())?.replace(/[^0-9]/g, ''));
}

/** Five regions in order that partition `[0, count)`, the tool schemas as an empty range after the system prompt. */
export function expectValidRegions(regions: RegionAttributes[], count: number): void {
  expect(regions.map((region) => region.region)).toEqual(['system', 'tools', 'head', 'middle', 'tail']);
  const [system, tools, head, middle, tail] = regions as [
    RegionAttributes,
    RegionAttributes,
    RegionAttributes,
    RegionAttributes,
    RegionAttributes,
  ];
  expect(system.start).toBe(0);
  expect(tools.start).toBe(system.end);
  expect(tools.end).toBe(system.end);
  expect(head.start).toBe(system.end);
  expect(middle.start).toBe(head.end);
  expect(tail.start).toBe(middle.end);
  expect(tail.end).toBe(count);
  for (const region of regions) {
    expect(region.end).toBeGreaterThanOrEqual(region.start);
    expect(Number.isFinite(region.tokens) && region.tokens >= 0).toBe(true);
  }
}

/** Opens the app on the demo and waits for the map. */
export async function openLab(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('context-map').locator('[data-region="tail"]')).toBeAttached({
    timeout: 30_000,
  });
}

/** Waits until the map's regions differ from `before`. */
export async function waitForRegionsToChange(
  page: Page,
  before: RegionAttributes[],
): Promise<RegionAttributes[]> {
  await expect
    .poll(async () => JSON.stringify(await readRegions(page)), { timeout: 15_000 })
    .not.toBe(JSON.stringify(before));
  return readRegions(page);
}
