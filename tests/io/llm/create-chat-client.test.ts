import { afterEach, describe, expect, it } from 'vitest';
import { createChatClient } from '#io/llm/create-chat-client.ts';
import { isLlmError } from '#io/llm/llm-error.ts';
import { hermesProviderName } from '#io/llm/provider-settings.ts';
import {
  rememberInstalledPolicy,
  resetConnectPolicyGuard,
  watchConnectViolations,
} from '#io/security/connect-policy-guard.ts';
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
    expect([openAi.provider, openAi.model, typeof openAi.countTokens]).toEqual([
      'openai-compatible',
      'gpt-test',
      'undefined',
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

  describe('a key bound to an origin', () => {
    it('is not sent when the base URL now points to another origin', async () => {
      const sent: string[] = [];
      const error = await createChatClient(
        {
          provider: 'anthropic',
          baseUrl: 'http://evil.example',
          apiKey: 'sk-ant-bound-0001',
          model: 'claude-test',
          keyOrigin: 'https://api.anthropic.com',
        },
        {
          preset: HERMES_2026_04,
          fetch: async (input) => (
            sent.push(input instanceof Request ? input.url : String(input)),
            new Response('{}')
          ),
        },
      ).catch((thrown: unknown) => thrown);
      expect(isLlmError(error) && error.kind).toBe('configuration');
      expect((error as Error).message).toBe(
        'The API key was saved for https://api.anthropic.com and is not sent to http://evil.example. ' +
          'Enter the key again for this base URL.',
      );
      expect(sent).toEqual([]);
    });

    it('is sent to the origin it was saved for', async () => {
      const client = await createChatClient(
        {
          provider: 'openai-compatible',
          baseUrl: `${provider.mock().url}/v1`,
          apiKey: 'sk-bound-0002',
          model: 'gpt-test',
          keyOrigin: provider.mock().url,
        },
        { preset: HERMES_2026_04 },
      );
      await client.send({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 10 });
      expect(provider.mock().requests.at(-1)!.headers.authorization).toBe('Bearer sk-bound-0002');
    });
  });

  describe("under the page's content security policy", () => {
    afterEach(() => resetConnectPolicyGuard());

    it('says "reload to allow HOST" for a base URL the policy installed at load does not allow', async () => {
      rememberInstalledPolicy({ origins: ['https://api.anthropic.com'], allowLoopback: true });
      const sent: string[] = [];
      const error = await createChatClient(
        {
          provider: 'openai-compatible',
          baseUrl: 'https://api.newhost.example/v1',
          apiKey: 'sk-1',
          model: 'm',
        },
        {
          preset: HERMES_2026_04,
          fetch: async (input) => (
            sent.push(input instanceof Request ? input.url : String(input)),
            new Response('{}')
          ),
        },
      ).catch((thrown: unknown) => thrown);
      expect(isLlmError(error) && error.kind).toBe('configuration');
      expect((error as Error).message).toMatch(/^Reload the page to allow api\.newhost\.example: /);
      expect(sent).toEqual([]);
      // Loopback servers stay allowed.
      await expect(
        createChatClient(
          {
            provider: 'openai-compatible',
            baseUrl: `${provider.mock().url}/v1`,
            apiKey: 'k',
            model: 'm',
          },
          { preset: HERMES_2026_04 },
        ),
      ).resolves.toBeDefined();
    });

    it('turns a network error to an origin the browser reported blocking into the same message', async () => {
      const listeners: Array<(event: { effectiveDirective?: string; blockedURI?: string }) => void> = [];
      watchConnectViolations({ addEventListener: (_type, listener) => void listeners.push(listener) });
      const client = await createChatClient(
        { provider: 'openai-compatible', baseUrl: 'https://blocked.example/v1', apiKey: 'sk-1', model: 'm' },
        {
          preset: HERMES_2026_04,
          fetch: async () => {
            // What the browser does: report the violation, reject the fetch.
            for (const listener of listeners)
              listener({
                effectiveDirective: 'connect-src',
                blockedURI: 'https://blocked.example/v1/chat/completions',
              });
            throw new TypeError('Failed to fetch');
          },
        },
      );
      const error = await client
        .send({ messages: [{ role: 'user', content: 'hi' }], maxTokens: 10 })
        .catch((thrown: unknown) => thrown);
      expect(isLlmError(error) && error.kind).toBe('configuration');
      expect((error as Error).message).toMatch(/^Reload the page to allow blocked\.example: /);
    });
  });
});
