import type { AssessmentRoute } from '../../core/lab/assess-compaction.ts';
import { hermesProviderName } from '../llm/provider-settings.ts';
import type { RuntimeSettings } from './runtime-settings.ts';

/**
 * Where the live conversation runs, for pricing its compactions: the user's provider, model,
 * base URL, cache TTL and caching switch. Null without a provider (the worker then prices the
 * main model on its usual route).
 */
export function assessmentRouteOf(settings: RuntimeSettings): AssessmentRoute | null {
  const provider = settings.provider;
  if (!provider) return null;
  return {
    model: provider.model,
    provider: hermesProviderName(provider),
    baseUrl: provider.baseUrl,
    apiMode: provider.provider === 'anthropic' ? 'anthropic_messages' : 'chat_completions',
    cacheTtl: settings.compression.cacheTtl,
    promptCaching: settings.promptCaching,
  };
}
