import { originOf } from '../../core/security/content-security-policy.ts';
import type { ChatProvider } from './chat-client.ts';

/** What the user configures for one provider connection. The key is only ever sent to `baseUrl`. */
export interface ProviderSettings {
  provider: ChatProvider;
  /**
   * Anthropic: the API origin (`https://api.anthropic.com`; a trailing `/v1` is tolerated).
   * OpenAI-compatible: the base that `/chat/completions` is appended to (`https://api.openai.com/v1`,
   * `https://openrouter.ai/api/v1`, `http://localhost:11434/v1`).
   */
  baseUrl: string;
  apiKey: string;
  model: string;
  /**
   * The origin the key was saved for (`https://api.anthropic.com`). When set, no request is made
   * unless the base URL still has this origin: a key never follows a changed base URL.
   */
  keyOrigin?: string;
}

export const DEFAULT_BASE_URLS: Readonly<Record<ChatProvider, string>> = {
  anthropic: 'https://api.anthropic.com',
  'openai-compatible': 'https://api.openai.com/v1',
};

/**
 * The provider as Hermes names it, for the error classifier, usage and cost routing:
 * OpenRouter and OpenAI are known by their hosts, anything else OpenAI-compatible is `custom`.
 */
export function hermesProviderName(settings: Pick<ProviderSettings, 'provider' | 'baseUrl'>): string {
  if (settings.provider === 'anthropic') return 'anthropic';
  const host = hostOf(settings.baseUrl);
  if (host === 'openrouter.ai' || host.endsWith('.openrouter.ai')) return 'openrouter';
  if (host === 'api.openai.com') return 'openai';
  return 'custom';
}

/** The origin requests go to: the base URL's, or the provider's default when none is set. */
export function effectiveOrigin(settings: Pick<ProviderSettings, 'provider' | 'baseUrl'>): string | null {
  return originOf(settings.baseUrl.trim() || DEFAULT_BASE_URLS[settings.provider]);
}

export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}
