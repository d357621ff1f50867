import { describe, expect, it } from 'vitest';
import { AppDb } from '#io/db/app-db.ts';
import { SettingsRepository } from '#io/db/settings-repository.ts';
import { PROVIDER_SETTING_KEY, ProviderState, apiKeySettingKey } from '#state/provider-state.svelte.ts';
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
      model: 'claude-haiku-4-5',
      apiKey: 'sk-ant-api03-abcdefghijklmnop-9f2c',
      keyOrigin: 'https://api.anthropic.com',
    });
    expect(
      await repository.get(
        apiKeySettingKey('anthropic'),
        {},
        (value): value is Record<string, string> => typeof value === 'object',
      ),
    ).toEqual({ 'https://api.anthropic.com': 'sk-ant-api03-abcdefghijklmnop-9f2c' });

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
    // A custom base URL is the user's choice and stays; the Anthropic key stays with its origin.
    expect(state.config.baseUrl).toBe('http://localhost:11434/v1');
    expect(state.hasKey).toBe(false);
    expect(state.keyOrigins).toEqual(['https://api.anthropic.com']);
    await state.update({ baseUrl: 'https://api.anthropic.com' });
    expect(state.keyHint).toBe('sk-ant-…1111');
  });

  it('binds each key to the origin it was saved for and never sends it elsewhere', async () => {
    const repository = freshRepository();
    const state = new ProviderState(repository);
    await state.load();
    await state.saveKey('sk-ant-bound-to-anthropic-0001');
    await state.update({ baseUrl: 'http://evil.example' });
    expect(state.providerSettings()).toBeNull();
    expect(state.hasKey).toBe(false);
    expect(state.keyHint).toBe('');
    expect(state.keyOrigins).toEqual(['https://api.anthropic.com']);
    // After a reload too.
    const reloaded = new ProviderState(repository);
    await reloaded.load();
    expect(reloaded.config.baseUrl).toBe('http://evil.example');
    expect(reloaded.providerSettings()).toBeNull();
    // A key entered for the new origin goes there; the first one stays with its own origin.
    await reloaded.saveKey('sk-ant-second-key-0002');
    expect(reloaded.providerSettings()).toMatchObject({
      apiKey: 'sk-ant-second-key-0002',
      keyOrigin: 'http://evil.example',
    });
    await reloaded.update({ baseUrl: 'https://api.anthropic.com/v1' });
    expect(reloaded.providerSettings()).toMatchObject({
      apiKey: 'sk-ant-bound-to-anthropic-0001',
      keyOrigin: 'https://api.anthropic.com',
    });
    await reloaded.removeKey();
    expect(reloaded.hasKey).toBe(false);
    expect(reloaded.keyOrigins).toEqual(['http://evil.example']);
  });

  it('binds a key stored before keys had origins to the base URL in use', async () => {
    const repository = freshRepository();
    await repository.set(PROVIDER_SETTING_KEY, {
      provider: 'openai-compatible',
      baseUrl: 'https://openrouter.ai/api/v1',
      model: 'anthropic/claude-sonnet-4',
      auxiliaryModel: '',
      cacheTtl: '5m',
      contextWindowOverride: null,
    });
    await repository.set(apiKeySettingKey('openai-compatible'), 'sk-or-legacy-key-7777');
    await repository.set(apiKeySettingKey('anthropic'), 'sk-ant-legacy-key-8888');
    const state = new ProviderState(repository);
    await state.load();
    expect(state.providerSettings()).toMatchObject({
      apiKey: 'sk-or-legacy-key-7777',
      keyOrigin: 'https://openrouter.ai',
    });
    await state.update({ baseUrl: 'https://collector.example.net/v1' });
    expect(state.providerSettings()).toBeNull();
    await state.setProvider('anthropic');
    await state.update({ baseUrl: '' });
    // Not the provider in use then: its legacy key belongs to its default origin.
    expect(state.providerSettings()).toMatchObject({
      apiKey: 'sk-ant-legacy-key-8888',
      keyOrigin: 'https://api.anthropic.com',
    });
  });

  it("keeps round 1's single window override as the window of the model it was set for", async () => {
    const repository = freshRepository();
    await repository.set(PROVIDER_SETTING_KEY, {
      provider: 'anthropic',
      baseUrl: 'https://api.anthropic.com',
      model: 'claude-sonnet-4-6',
      auxiliaryModel: '',
      cacheTtl: '5m',
      contextWindowOverride: 180_000,
    });
    const state = new ProviderState(repository);
    await state.load();
    expect(state.config.contextWindows).toEqual({ 'claude-sonnet-4-6': 180_000 });
    expect(state.contextWindow).toBe(180_000);
  });

  it('describes prompt caching for the route and knows the model window', async () => {
    const state = new ProviderState(freshRepository());
    await state.load();
    expect(state.cacheStatus(HERMES_2026_04)).toBe('Prompt caching: ENABLED (native Anthropic, 5m TTL)');
    await state.update({ cacheTtl: '1h' });
    expect(state.cacheStatus(HERMES_2026_07)).toBe('Prompt caching: ENABLED (native Anthropic, 1h TTL)');
    // The default model, Claude Haiku 4.5: a 200K window.
    expect(state.contextWindow).toBe(200_000);
    expect(state.contextWindowOverridden).toBe(false);
    await state.setContextWindow(500_000);
    expect(state.contextWindow).toBe(500_000);
    expect(state.contextWindowOverridden).toBe(true);
    // One window per model: another model has its own (the catalog's), and coming back brings ours.
    await state.update({ model: 'gpt-5' });
    expect(state.contextWindow).toBe(400_000);
    await state.update({ model: 'claude-haiku-4-5' });
    expect(state.contextWindow).toBe(500_000);
    // The catalog's own value clears the override; so does null; a non-window is refused.
    await state.setContextWindow(200_000);
    expect(state.contextWindowOverridden).toBe(false);
    expect(await state.setContextWindow(0)).toBe(false);
    expect(await state.setContextWindow(1.5)).toBe(false);
    expect(state.compressionRoute()).toEqual({ contextLength: 200_000, summaryModel: '', cacheTtl: '1h' });
    await state.setProvider('openai-compatible');
    expect(state.cacheStatus(HERMES_2026_07)).toMatch(/^Prompt caching: DISABLED/);
  });
});
