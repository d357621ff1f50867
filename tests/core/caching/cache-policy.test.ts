import { describe, expect, it } from 'vitest';
import {
  describeCacheStatus,
  hostnameOf,
  resolveCachePolicy,
  type CacheRoute,
} from '#core/caching/cache-policy.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const route = (overrides: Partial<CacheRoute>): CacheRoute => ({
  provider: 'openrouter',
  model: 'anthropic/claude-sonnet-4.5',
  baseUrl: 'https://openrouter.ai/api/v1',
  apiMode: 'chat_completions',
  ...overrides,
});

describe('resolveCachePolicy', () => {
  it('uses the native layout on the native Anthropic API', () => {
    const policy = resolveCachePolicy(
      route({ provider: 'anthropic', baseUrl: 'https://api.anthropic.com', apiMode: 'anthropic_messages' }),
      HERMES_2026_07,
    );
    expect(policy).toEqual({ shouldCache: true, nativeLayout: true, description: 'native Anthropic' });
  });

  it('uses the envelope layout for Claude via OpenRouter', () => {
    expect(resolveCachePolicy(route({}), HERMES_2026_04)).toMatchObject({
      shouldCache: true,
      nativeLayout: false,
    });
  });

  it('treats a provider named openrouter without a base URL as OpenRouter', () => {
    expect(resolveCachePolicy(route({ baseUrl: '' }), HERMES_2026_07).shouldCache).toBe(true);
  });

  it('enables Kimi on OpenRouter only in 2026-07', () => {
    const kimi = route({ model: 'moonshotai/kimi-k2' });
    expect(resolveCachePolicy(kimi, HERMES_2026_07).shouldCache).toBe(true);
    expect(resolveCachePolicy(kimi, HERMES_2026_04).shouldCache).toBe(false);
  });

  it('calls a third-party Anthropic-wire gateway an Anthropic-compatible endpoint in 2026-07', () => {
    const gateway = route({
      provider: 'custom',
      baseUrl: 'https://gw.example.com',
      apiMode: 'anthropic_messages',
    });
    expect(resolveCachePolicy(gateway, HERMES_2026_07)).toEqual({
      shouldCache: true,
      nativeLayout: true,
      description: 'Anthropic-compatible endpoint',
    });
    expect(resolveCachePolicy(gateway, HERMES_2026_04).description).toBe('native Anthropic');
  });

  it('enables MiniMax on its Anthropic endpoint only in 2026-07', () => {
    const minimax = route({
      provider: 'minimax',
      model: 'MiniMax-M2.7',
      baseUrl: '',
      apiMode: 'anthropic_messages',
    });
    expect(resolveCachePolicy(minimax, HERMES_2026_07).shouldCache).toBe(true);
    expect(resolveCachePolicy(minimax, HERMES_2026_04).shouldCache).toBe(false);
  });

  it('caches Qwen on the Alibaba family with the envelope layout', () => {
    const qwen = route({ provider: 'opencode-go', model: 'qwen3.6-plus', baseUrl: '' });
    expect(resolveCachePolicy(qwen, HERMES_2026_04)).toMatchObject({
      shouldCache: true,
      nativeLayout: false,
    });
  });

  it('disables caching for OpenAI models and says why', () => {
    const policy = resolveCachePolicy(
      route({ provider: 'openai', model: 'gpt-4o', baseUrl: 'https://api.openai.com/v1' }),
      HERMES_2026_07,
    );
    expect(policy.shouldCache).toBe(false);
    expect(policy.description).toContain('gpt-4o');
  });
});

describe('describeCacheStatus', () => {
  it('prints the Hermes status line', () => {
    expect(describeCacheStatus(resolveCachePolicy(route({}), HERMES_2026_04), '5m')).toBe(
      'Prompt caching: ENABLED (Claude via OpenRouter, 5m TTL)',
    );
  });

  it('prints the native Anthropic line with a one-hour ttl', () => {
    const policy = resolveCachePolicy(
      route({ provider: 'anthropic', baseUrl: '', apiMode: 'anthropic_messages' }),
      HERMES_2026_07,
    );
    expect(describeCacheStatus(policy, '1h')).toBe('Prompt caching: ENABLED (native Anthropic, 1h TTL)');
  });

  it('prints DISABLED with the reason, or a route label when given', () => {
    const policy = resolveCachePolicy(
      route({ provider: 'custom', model: 'llama', baseUrl: 'http://localhost:8080' }),
      HERMES_2026_07,
    );
    expect(describeCacheStatus(policy, '5m')).toMatch(/^Prompt caching: DISABLED \(.+\)$/);
    expect(describeCacheStatus(policy, '5m', 'local server')).toBe('Prompt caching: DISABLED (local server)');
  });
});

describe('hostnameOf', () => {
  it('extracts the host from URLs with or without a scheme, port or credentials', () => {
    expect(hostnameOf('https://user:pw@OpenRouter.ai:443/api/v1')).toBe('openrouter.ai');
    expect(hostnameOf('api.anthropic.com/v1')).toBe('api.anthropic.com');
    expect(hostnameOf('')).toBe('');
  });
});
