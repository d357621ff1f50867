import type { Preset } from '../../core/presets/preset.ts';
import type { ChatClient } from './chat-client.ts';
import { connectBlockedMessage } from '../security/connect-policy-guard.ts';
import { isLlmError, LlmError } from './llm-error.ts';
import { DEFAULT_BASE_URLS, effectiveOrigin, type ProviderSettings } from './provider-settings.ts';

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
  const origin = effectiveOrigin(settings);
  if (settings.keyOrigin !== undefined && origin !== settings.keyOrigin) {
    throw configurationError(
      settings,
      `The API key was saved for ${settings.keyOrigin} and is not sent to ${origin ?? settings.baseUrl}. ` +
        'Enter the key again for this base URL.',
    );
  }
  const target = settings.baseUrl.trim() || DEFAULT_BASE_URLS[settings.provider];
  const blocked = connectBlockedMessage(target);
  if (blocked !== null) throw configurationError(settings, blocked);
  const common = {
    apiKey: settings.apiKey.trim(),
    baseUrl: settings.baseUrl,
    model: settings.model.trim(),
    preset,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  if (settings.provider === 'anthropic') {
    const { createAnthropicClient } = await import('./anthropic-client.ts');
    return explainBlockedConnections(createAnthropicClient(common), settings, target);
  }
  const { createOpenAiCompatibleClient } = await import('./openai-compatible-client.ts');
  return explainBlockedConnections(
    createOpenAiCompatibleClient({
      ...common,
      ...(options.appReferer ? { appReferer: options.appReferer } : {}),
      ...(options.appTitle ? { appTitle: options.appTitle } : {}),
    }),
    settings,
    target,
  );
}

/**
 * A network error to an origin the page's policy blocked (the browser reported the violation)
 * becomes "reload to allow HOST": retrying cannot help, and "failed to fetch" says nothing.
 */
function explainBlockedConnections(
  client: ChatClient,
  settings: ProviderSettings,
  target: string,
): ChatClient {
  const explain = (error: unknown): never => {
    const blocked = isLlmError(error) && error.kind === 'network' ? connectBlockedMessage(target) : null;
    throw blocked === null ? error : configurationError(settings, blocked);
  };
  return {
    provider: client.provider,
    model: client.model,
    send: (request, handlers, signal) => client.send(request, handlers, signal).catch(explain),
    ...(client.countTokens
      ? {
          countTokens: (
            request: Parameters<NonNullable<ChatClient['countTokens']>>[0],
            signal?: AbortSignal,
          ) => client.countTokens!(request, signal).catch(explain),
        }
      : {}),
  };
}

function configurationError(settings: ProviderSettings, message: string): LlmError {
  return new LlmError({ kind: 'configuration', provider: settings.provider, message });
}
