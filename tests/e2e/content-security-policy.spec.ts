import { expect, test } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';

test.describe('content security policy', () => {
  test('limits connections to the app, the configured provider and local servers', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    // Every violation the page reports, so one by the app itself (a script, its WebAssembly) fails
    // the test; only the deliberate request below may be refused.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(`${event.effectiveDirective} ${event.blockedURI}`),
      );
    });
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
    // The demo still opens and counts: the policy does not get in the app's own way.
    await expect(page.getByTestId('context-map')).toBeVisible({ timeout: 30_000 });
    const violations = await page.evaluate(
      () => (window as unknown as { cspViolations: string[] }).cspViolations,
    );
    expect(violations.filter((violation) => !violation.includes('collector.example.com'))).toEqual([]);
    expect(errors.filter((error) => !/collector\.example\.com|Content Security Policy/.test(error))).toEqual(
      [],
    );
  });
});
