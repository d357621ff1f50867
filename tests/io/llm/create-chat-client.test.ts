import { describe, expect, it } from 'vitest';
import { createChatClient } from '#io/llm/create-chat-client.ts';
import { isLlmError } from '#io/llm/llm-error.ts';
import { hermesProviderName } from '#io/llm/provider-settings.ts';
import { useMockProvider } from './mock-provider-fixture.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';

const provider = useMockProvider();

describe('createChatClient', () => {
  it('builds the client for each provider, loading the Anthropic one lazily', async () => {
    const anthropic = await createChatClient(
      {
        provider: 'anthropic',
        baseUrl: provider.mock().url,
        apiKey: 'sk-ant-1234',
        model: 'claude-test',
      },
      { preset: HERMES_2026_04 },
    );
    const openAi = await createChatClient(
      {
        provider: 'openai-compatible',
        baseUrl: `${provider.mock().url}/v1`,
        apiKey: 'sk-1234',
        model: 'gpt-test',
      },
      { preset: HERMES_2026_04 },
    );
    expect([anthropic.provider, anthropic.model, typeof anthropic.countTokens]).toEqual([
      'anthropic',
      'claude-test',
      'function',
    ]);
    expect([openAi.provider, openAi.model, openAi.countTokens]).toEqual([
      'openai-compatible',
      'gpt-test',
      undefined,
    ]);
    await anthropic.send({ messages: [{ role: 'user', content: 'a' }], maxTokens: 10 });
    await openAi.send({ messages: [{ role: 'user', content: 'b' }], maxTokens: 10 });
    expect(provider.mock().requests.map((request) => request.path)).toEqual([
      '/v1/messages',
      '/v1/chat/completions',
    ]);
  });

  it('rejects settings that cannot make a request with a configuration LlmError', async () => {
    const base = { provider: 'anthropic' as const, baseUrl: '', apiKey: 'sk-ant-1234', model: 'claude-test' };
    for (const settings of [
      { ...base, apiKey: ' ' },
      { ...base, model: '' },
      { ...base, baseUrl: 'javascript:alert(1)' },
    ]) {
      const error: unknown = await createChatClient(settings, { preset: HERMES_2026_04 }).catch(
        (thrown: unknown) => thrown,
      );
      expect(isLlmError(error) && error.kind).toBe('configuration');
      expect((error as Error).message).not.toContain('sk-ant-1234');
    }
  });
});

describe('hermesProviderName', () => {
  it('names OpenRouter and OpenAI by host and everything else custom', () => {
    expect(
      hermesProviderName({ provider: 'openai-compatible', baseUrl: 'https://openrouter.ai/api/v1' }),
    ).toBe('openrouter');
    expect(hermesProviderName({ provider: 'openai-compatible', baseUrl: 'https://api.openai.com/v1' })).toBe(
      'openai',
    );
    expect(hermesProviderName({ provider: 'openai-compatible', baseUrl: 'http://localhost:11434/v1' })).toBe(
      'custom',
    );
    expect(hermesProviderName({ provider: 'anthropic', baseUrl: '' })).toBe('anthropic');
  });
});
