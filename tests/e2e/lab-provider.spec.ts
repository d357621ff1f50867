import { expect, test } from '@playwright/test';
import { collectConsoleErrors } from './console-errors.ts';
import { openLab } from './lab-helpers.ts';

test.describe('provider settings', () => {
  test('stores the key locally, shows only a masked hint, and removes it', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    await page.keyboard.press('3');
    await expect(page.getByTestId('setting-base-url')).toHaveValue('https://api.anthropic.com');
    await expect(page.getByTestId('api-key')).toHaveAttribute('type', 'password');
    await expect(page.getByTestId('api-key-hint')).toHaveCount(0);

    const key = 'sk-ant-api03-SECRETSECRETSECRET-9f2c';
    await page.getByTestId('api-key').fill(key);
    await page.getByTestId('api-key-save').click();
    await expect(page.getByTestId('api-key-hint')).toHaveText('sk-ant-…9f2c');
    await expect(page.getByTestId('api-key')).toHaveValue('');
    await expect(page.getByTestId('provider-model')).not.toContainText('no key');
    expect(await page.content()).not.toContain('SECRETSECRET');

    await page.reload();
    await page.keyboard.press('3');
    await expect(page.getByTestId('api-key-hint')).toHaveText('sk-ant-…9f2c');
    expect(await page.content()).not.toContain('SECRETSECRET');

    await page.getByTestId('api-key-remove').click();
    await expect(page.getByTestId('api-key-hint')).toHaveCount(0);
    await page.reload();
    await page.keyboard.press('3');
    await expect(page.getByTestId('api-key-hint')).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test('switching provider moves the default base URL; model, TTL and caching status follow', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await openLab(page);
    await page.getByTestId('tab-provider').click();
    await expect(page.getByTestId('cache-status')).toHaveText(
      'Prompt caching: ENABLED (native Anthropic, 5m TTL)',
    );
    await page.getByTestId('setting-cache-ttl').selectOption('1h');
    await expect(page.getByTestId('cache-status')).toHaveText(
      'Prompt caching: ENABLED (native Anthropic, 1h TTL)',
    );
    await page.getByTestId('setting-provider').selectOption('openai-compatible');
    await expect(page.getByTestId('setting-base-url')).toHaveValue('https://api.openai.com/v1');
    await expect(page.getByTestId('setting-model')).toHaveValue('gpt-5.4');
    await expect(page.getByTestId('cache-status')).toContainText('Prompt caching: DISABLED');
    await page.getByTestId('setting-base-url').fill('https://openrouter.ai/api/v1');
    await page.getByTestId('setting-base-url').press('Enter');
    await page.getByTestId('setting-model').fill('anthropic/claude-sonnet-4.5');
    await page.getByTestId('setting-model').press('Enter');
    await expect(page.getByTestId('cache-status')).toHaveText(
      'Prompt caching: ENABLED (Claude via OpenRouter, 1h TTL)',
    );
    await expect(page.getByTestId('setting-context-window')).toHaveValue('200000');
    // One window per model: the Provider tab and the Plan tab edit the same setting, and the map
    // draws it.
    await page.getByTestId('setting-context-window').fill('150000');
    await page.getByTestId('setting-context-window').press('Enter');
    await expect(page.getByTestId('map-marker-window')).toHaveAttribute('data-tokens', '150000');
    await page.getByTestId('tab-plan').click();
    await expect(page.getByTestId('setting-context-length')).toHaveValue('150000');
    await page.getByTestId('setting-context-length').fill('120000');
    await page.getByTestId('tab-provider').click();
    await expect(page.getByTestId('setting-context-window')).toHaveValue('120000');
    await page.screenshot({ path: test.info().outputPath('provider-light.png') });
    await page.getByTestId('theme-dark').click();
    await page.screenshot({ path: test.info().outputPath('provider-dark.png') });
    expect(errors).toEqual([]);
  });
});
