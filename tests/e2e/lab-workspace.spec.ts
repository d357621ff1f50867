import { expect, test } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';
import { openLab } from './lab-helpers.ts';

test.describe('one workspace', () => {
  test('the after lane shows the projected context in the map counting, and warns when it does not fit', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    const lane = page.getByTestId('after-lane');
    await page.getByTestId('setting-context-length').fill('64000');
    await expect(page.getByTestId('map-marker-window')).toHaveAttribute('data-tokens', '64000');
    await expect(lane).toHaveAttribute('data-fires', 'true');
    // The exact count arrives after the rough one: read once the map shows exact figures.
    await expect(page.getByTestId('context-map')).toHaveAttribute('data-token-basis', /o200k|cl100k/);
    const read = () =>
      lane.evaluate((element) => ({
        tokens: Number(element.getAttribute('data-tokens')),
        segments: [...element.querySelectorAll('[data-segment]')].map((segment) =>
          Number(segment.getAttribute('data-tokens')),
        ),
      }));
    const { tokens, segments } = await read();
    const total = Number(await page.getByTestId('context-map').getAttribute('data-total-tokens'));
    // Fits the window, is what is left of the map's total, and is the sum of its stretches.
    expect(tokens).toBeGreaterThan(0);
    expect(tokens).toBeLessThan(64_000);
    expect(tokens).toBeLessThan(total);
    expect(segments.reduce((sum, value) => sum + value, 0)).toBe(tokens);
    await expect(lane.locator('[data-segment="summary"]')).toHaveCount(1);
    await expect(page.getByTestId('after-warning')).toHaveCount(0);

    // A 32K window (issue 16's case): 2026-04 raises the trigger to its 64K floor, above the
    // window, and the kept tail alone is larger than the window — both said in red.
    await page.getByTestId('setting-context-length').fill('32000');
    const warnings = page.getByTestId('after-warning');
    await expect(
      warnings.filter({ hasText: 'The trigger (64,000 tokens) is above the 32,000-token window' }),
    ).toHaveCount(1);
    await expect(
      warnings.filter({
        hasText: /^The kept tail alone \([\d,]+ tokens\) is larger than the whole window of 32,000 tokens\.$/,
      }),
    ).toHaveCount(1);
    await page.screenshot({ path: test.info().outputPath('after-lane-32k.png') });
    expect(errors).toEqual([]);
  });

  test('the explanation calls a collapsed tail a collapse, labels walk figures as after pruning, and hints by generation', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    const steps = page.getByTestId('tail-cut-steps');
    await expect(steps).toContainText('counted after pruning');
    await expect(page.getByTestId('tail-collapsed')).toHaveCount(0);
    const tail = () =>
      page
        .getByTestId('context-map')
        .locator('[data-region="tail"]')
        .evaluate(
          (element) => Number(element.getAttribute('data-end')) - Number(element.getAttribute('data-start')),
        );
    const before = await tail();
    // A larger tail budget lets the walk take everything after the head, and Hermes 2026-04 then
    // collapses the tail to its minimum of 3 messages (issue 16 finding 3).
    await page.getByTestId('setting-target-ratio').fill('80');
    await expect(page.getByTestId('tail-collapsed')).toContainText('collapsed to its minimum of 3 messages');
    await expect(steps).toContainText('Collapsed to the minimum');
    await expect(steps).not.toContainText('Floor: the tail keeps at least');
    expect(await tail()).toBeLessThan(before);
    // protect_last_n's hint follows the generation's rule.
    await expect(
      page.getByText('pruning floor (the tail keeps at least 3 messages whatever n is)'),
    ).toBeVisible();
    await page.getByTestId('setting-preset').selectOption('hermes-2026-07');
    await expect(
      page.getByText('tail keeps at least max(3, min(n, 8)) messages; pruning floor'),
    ).toBeVisible();
    expect(errors).toEqual([]);
  });
});
