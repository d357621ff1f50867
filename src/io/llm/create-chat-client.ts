import type { Preset } from '../../core/presets/preset.ts';
import type { ChatClient } from './chat-client.ts';
import { LlmError } from './llm-error.ts';
import type { ProviderSettings } from './provider-settings.ts';

export interface CreateChatClientOptions {
  /** Its error classification and usage reading apply to this client's responses. */
  preset: Preset;
  /** Injected for tests. */
  fetch?: typeof fetch;
  /** OpenRouter attribution headers (sent to OpenRouter only). */
  appReferer?: string;
  appTitle?: string;
}

/**
 * The client for the user's provider settings. Both clients sit on official SDKs (Anthropic's,
 * ~80 KB gzip; `openai`, ~35 KB gzip) and each is imported only when that provider is used, so
 * neither SDK is in the main bundle (SPEC §7).
 * Rejects with a `configuration` LlmError when no request could be made.
 */
export async function createChatClient(
  settings: ProviderSettings,
  options: CreateChatClientOptions,
): Promise<ChatClient> {
  const { preset } = options;
  if (settings.apiKey.trim() === '')
    throw configurationError(settings, 'No API key is set for this provider.');
  if (settings.model.trim() === '') throw configurationError(settings, 'No model is set for this provider.');
  if (settings.baseUrl.trim() !== '' && !/^https?:\/\/[^/]/i.test(settings.baseUrl.trim())) {
    throw configurationError(settings, `The base URL "${settings.baseUrl}" is not an http(s) URL.`);
  }
  const common = {
    apiKey: settings.apiKey.trim(),
    baseUrl: settings.baseUrl,
    model: settings.model.trim(),
    preset,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  if (settings.provider === 'anthropic') {
    const { createAnthropicClient } = await import('./anthropic-client.ts');
    return createAnthropicClient(common);
  }
  const { createOpenAiCompatibleClient } = await import('./openai-compatible-client.ts');
  return createOpenAiCompatibleClient({
    ...common,
    ...(options.appReferer ? { appReferer: options.appReferer } : {}),
    ...(options.appTitle ? { appTitle: options.appTitle } : {}),
  });
}

function configurationError(settings: ProviderSettings, message: string): LlmError {
  return new LlmError({ kind: 'configuration', provider: settings.provider, message });
}
