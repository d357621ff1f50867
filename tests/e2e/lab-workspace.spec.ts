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
    // No summary is written for the lane: its stretch is the summariser's budget, and says so.
    await expect(lane.locator('.legend')).toContainText('summary (budget)');
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

  test('both counts are judged against the trigger, a disagreement is flagged, and the gauge and the map show one total', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    // Issue 16 finding 4: at 2026-04's 100K trigger (a 200K window) the demo's exact o200k count
    // passes the trigger and its rough count (what Hermes decides on) does not.
    await page.getByTestId('setting-preset').selectOption('hermes-2026-04');
    await page.getByTestId('setting-context-length').fill('200000');
    const map = page.getByTestId('context-map');
    await expect(map).toHaveAttribute('data-token-basis', /o200k/);
    await expect(page.getByTestId('map-marker-threshold')).toHaveAttribute('data-tokens', '100000');
    const exactTotal = Number(await map.getAttribute('data-total-tokens'));
    expect(exactTotal).toBeGreaterThan(100_000);
    await expect(page.getByTestId('counts-disagree')).toHaveText(
      'The rough and the exact count disagree about firing: Hermes decides on the rough one.',
    );
    await expect(map).toHaveAttribute('data-fires', 'false');
    // The gauge shows the count the strategy decides on, and says it is the rough one.
    const gauge = page.getByTestId('context-gauge');
    await expect(gauge).toHaveAttribute('data-basis', 'rough');
    await expect(page.getByTestId('context-gauge-used')).toHaveText(/^\d[\d.]*K rough in context$/);
    await expect(gauge).toHaveAttribute('data-fires', 'false');
    const decided = Number(await gauge.getAttribute('data-tokens'));
    expect(decided).toBeLessThan(100_000);

    // Counted roughly, the map agrees with the verdict.
    await page.getByTestId('setting-estimator').selectOption('rough');
    await expect(map).toHaveAttribute('data-token-basis', 'rough');
    // Drawn in the counting it decides on, the map's total is the gauge's figure: each message
    // counts as its share of Hermes' one rounding over the request.
    await expect(map).toHaveAttribute('data-total-tokens', String(decided));
    await expect(page.getByTestId('context-gauge-used')).toHaveText(/^\d[\d.]*K in context$/);

    // Back to exact counting, a threshold under both counts: they agree, and the flag goes.
    await page.getByTestId('setting-estimator').selectOption('o200k_base');
    await expect(page.getByTestId('counts-disagree')).toBeVisible();
    await page.getByTestId('setting-threshold').fill('40');
    await expect(map).toHaveAttribute('data-fires', 'true');
    await expect(page.getByTestId('counts-disagree')).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test('the splitter widens the inspector by drag or keys, the width survives a reload, and Enter resets it', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    const splitter = page.getByTestId('inspector-splitter');
    const inspector = page.getByRole('complementary', { name: 'Inspector' });
    const drawnWidth = async () => Math.round((await inspector.boundingBox())!.width);
    const initial = await drawnWidth();
    await expect(splitter).toHaveAttribute('aria-valuenow', String(initial));
    const max = Number(await splitter.getAttribute('aria-valuemax'));
    expect(max).toBeGreaterThan(initial);

    // Dragged 300 px to the left: the inspector is 300 px wider, the transcript 300 px narrower.
    const transcript = page.getByRole('region', { name: 'Transcript' });
    const transcriptBefore = (await transcript.boundingBox())!.width;
    const box = (await splitter.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 300);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 300, box.y + 300, { steps: 10 });
    await page.mouse.up();
    await expect(splitter).toHaveAttribute('aria-valuenow', String(initial + 300));
    expect(await drawnWidth()).toBe(initial + 300);
    expect(Math.round(transcriptBefore - (await transcript.boundingBox())!.width)).toBe(300);

    // The comparison table gets the room: its frame is as much wider as the inspector.
    await page.getByTestId('inspector-splitter').focus();
    await page.keyboard.press('Home');
    await page.getByTestId('tab-compare').click();
    await page.getByTestId('compare-start-pair').click();
    await page.getByTestId('compare-run').click();
    await expect(page.getByTestId('compare-row')).toHaveCount(2);
    const tableFrame = () =>
      page.getByTestId('compare-table').evaluate((table) => table.parentElement!.clientWidth);
    const narrow = await tableFrame();
    await splitter.focus();
    await page.keyboard.press('End');
    await expect(splitter).toHaveAttribute('aria-valuenow', String(max));
    expect(await tableFrame()).toBe(narrow + max - 360);

    // Kept for the next visit.
    await page.reload();
    await expect(page.getByTestId('context-map')).toBeVisible();
    await expect(splitter).toHaveAttribute('aria-valuenow', String(max));

    // Keys: left widens, right narrows, Shift moves four steps, Home is the narrowest.
    await splitter.focus();
    await page.keyboard.press('ArrowRight');
    await expect(splitter).toHaveAttribute('aria-valuenow', String(max - 16));
    await page.keyboard.press('Shift+ArrowRight');
    await expect(splitter).toHaveAttribute('aria-valuenow', String(max - 80));
    await page.keyboard.press('ArrowLeft');
    await expect(splitter).toHaveAttribute('aria-valuenow', String(max - 64));
    await page.keyboard.press('Home');
    await expect(splitter).toHaveAttribute('aria-valuenow', '360');

    // Enter goes back to the default share of the window, and that is what a reload shows.
    await page.keyboard.press('Enter');
    await expect(splitter).toHaveAttribute('aria-valuenow', String(initial));
    await page.reload();
    await expect(page.getByTestId('context-map')).toBeVisible();
    await expect(splitter).toHaveAttribute('aria-valuenow', String(initial));

    // A drag that ends where it began keeps nothing: the default still follows the window.
    const start = (await splitter.boundingBox())!;
    await page.mouse.move(start.x + start.width / 2, start.y + 300);
    await page.mouse.down();
    await page.mouse.move(start.x + start.width / 2 - 100, start.y + 300, { steps: 5 });
    await page.mouse.move(start.x + start.width / 2, start.y + 300, { steps: 5 });
    await page.mouse.up();
    await page.setViewportSize({ width: 1200, height: 900 });
    // The stylesheet's default, clamp(400px, 34vw, 560px): 408 px at 1200.
    await expect.poll(drawnWidth).toBe(408);
    expect(errors).toEqual([]);
  });
});
