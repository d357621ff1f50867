import { describe, expect, it } from 'vitest';
import { AppDb } from '#io/db/app-db.ts';
import { SettingsRepository } from '#io/db/settings-repository.ts';
import { ProviderState, apiKeySettingKey } from '#state/provider-state.svelte.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

let databases = 0;
const freshRepository = () => new SettingsRepository(new AppDb(`provider-state-test-${++databases}`));

describe('ProviderState', () => {
  it('stores the key in IndexedDB and exposes only its masked hint', async () => {
    const repository = freshRepository();
    const state = new ProviderState(repository);
    await state.load();
    expect(state.hasKey).toBe(false);
    expect(state.providerSettings()).toBeNull();
    expect(await state.saveKey('   ')).toBe(false);
    expect(await state.saveKey('  sk-ant-api03-abcdefghijklmnop-9f2c ')).toBe(true);
    expect(state.keyHint).toBe('sk-ant-…9f2c');
    expect(state.providerSettings()).toEqual({
      provider: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
      model: 'claude-sonnet-4-6',
      apiKey: 'sk-ant-api03-abcdefghijklmnop-9f2c',
    });
    expect(
      await repository.get(
        apiKeySettingKey('anthropic'),
        '',
        (value): value is string => typeof value === 'string',
      ),
    ).toBe('sk-ant-api03-abcdefghijklmnop-9f2c');

    const reloaded = new ProviderState(repository);
    await reloaded.load();
    expect(reloaded.keyHint).toBe('sk-ant-…9f2c');
    await reloaded.removeKey();
    expect(reloaded.hasKey).toBe(false);
    const again = new ProviderState(repository);
    await again.load();
    expect(again.hasKey).toBe(false);
  });

  it('keeps keys per provider and moves default base URLs and models on a switch', async () => {
    const state = new ProviderState(freshRepository());
    await state.load();
    await state.saveKey('sk-ant-aaaaaaaaaaaaaaaa-1111');
    await state.setProvider('openai-compatible');
    expect(state.config.baseUrl).toBe('https://api.openai.com/v1');
    expect(state.config.model).toBe('gpt-5.4');
    expect(state.hasKey).toBe(false);
    await state.update({ baseUrl: 'http://localhost:11434/v1', model: 'qwen3-coder' });
    await state.setProvider('anthropic');
    // A custom base URL is the user's choice and stays.
    expect(state.config.baseUrl).toBe('http://localhost:11434/v1');
    expect(state.keyHint).toBe('sk-ant-…1111');
  });

  it('describes prompt caching for the route and knows the model window', async () => {
    const state = new ProviderState(freshRepository());
    await state.load();
    expect(state.cacheStatus(HERMES_2026_04)).toBe('Prompt caching: ENABLED (native Anthropic, 5m TTL)');
    await state.update({ cacheTtl: '1h' });
    expect(state.cacheStatus(HERMES_2026_07)).toBe('Prompt caching: ENABLED (native Anthropic, 1h TTL)');
    expect(state.contextWindow).toBe(1_000_000);
    await state.update({ contextWindowOverride: 500_000 });
    expect(state.contextWindow).toBe(500_000);
    await state.setProvider('openai-compatible');
    expect(state.cacheStatus(HERMES_2026_07)).toMatch(/^Prompt caching: DISABLED/);
  });
});
