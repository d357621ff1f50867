import { expect, test } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';

test.describe('content security policy', () => {
  test('limits connections to the app, the configured provider and local servers', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await page.goto('/');
    await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveCount(1);
    const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(policy).toContain("script-src 'self'");
    expect(policy).toMatch(/connect-src 'self' https:\/\/api\.anthropic\.com/);
    // A request to any other host is refused by the browser before it leaves the page.
    const blocked = await page.evaluate(async () => {
      try {
        await fetch('https://collector.example.com/track', { method: 'POST', body: 'x' });
        return false;
      } catch {
        return true;
      }
    });
    expect(blocked).toBe(true);
    // The app's own WebAssembly (core/tokens' text scans) compiles under the policy; eval does not.
    const compiled = await page.evaluate(() => {
      try {
        new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
        return true;
      } catch {
        return false;
      }
    });
    expect(compiled).toBe(true);
    const evaluated = await page.evaluate(() => {
      try {
        return (0, eval)('1 + 1') === 2;
      } catch {
        return false;
      }
    });
    expect(evaluated).toBe(false);
    // The demo still opens and counts: the policy does not get in the app's own way.
    await expect(page.getByTestId('context-map')).toBeVisible({ timeout: 30_000 });
    expect(errors.filter((error) => !/collector\.example\.com|Content Security Policy/.test(error))).toEqual(
      [],
    );
  });
});
