import { resolveCachePolicy } from '../../core/caching/cache-policy.ts';
import { buildApiMessages } from '../../core/loop/build-api-messages.ts';
import { lookupModel } from '../../core/models/model-catalog.ts';
import { estimateRequestTokensRough } from '../../core/tokens/estimate-request-tokens-rough.ts';
import type { Message } from '../../core/transcript/message.ts';
import type { ToolSchema } from '../../core/transcript/transcript.ts';
import type { ChatRequest } from '../llm/chat-client.ts';
import { hermesProviderName, type ProviderSettings } from '../llm/provider-settings.ts';
import type { RuntimeSettings } from './runtime-settings.ts';

export interface ChatRequestInput {
  readonly messages: readonly Message[];
  readonly systemPrompt: string;
  readonly settings: RuntimeSettings & { readonly provider: ProviderSettings };
  readonly tools: readonly ToolSchema[];
  /** The window compaction currently works with (for the error classifier's size rules). */
  readonly contextLength: number;
  /** An output-cap recovery's ephemeral `max_tokens` for the rest of the turn. */
  readonly maxTokensOverride: number | null;
}

/**
 * One streamed provider request: the API message list (system prompt first, cache markers when
 * the route takes them and the user left caching on, then the wire sanitiser), the tool
 * schemas, and the output cap.
 */
export function buildChatRequest(input: ChatRequestInput): ChatRequest {
  const { settings } = input;
  const provider = settings.provider;
  const policy = settings.promptCaching
    ? resolveCachePolicy(
        {
          provider: hermesProviderName(provider),
          model: provider.model,
          baseUrl: provider.baseUrl,
          apiMode: provider.provider === 'anthropic' ? 'anthropic_messages' : 'chat_completions',
        },
        settings.strategy.preset,
      )
    : null;
  const api = buildApiMessages(input.messages, {
    systemPrompt: input.systemPrompt,
    cachePolicy: policy,
    cacheTtl: settings.compression.cacheTtl,
    preset: settings.strategy.preset,
  });
  return {
    messages: api.messages,
    maxTokens: chatMaxTokens(settings, input.maxTokensOverride),
    tools: [...input.tools],
    stream: true,
    cacheMarkersApplied: api.cacheMarkersApplied,
    errorContext: {
      approxTokens: estimateRequestTokensRough(
        input.messages,
        input.systemPrompt,
        input.tools,
        settings.strategy.preset,
      ),
      contextLength: input.contextLength,
    },
  };
}

/** The user's output cap, never above the model's own, lowered further by an output-cap recovery. */
export function chatMaxTokens(settings: RuntimeSettings, override: number | null): number {
  const cap = Math.min(settings.maxOutputTokens, lookupModel(settings.provider?.model ?? '').maxOutputTokens);
  return override !== null ? Math.min(override, cap) : cap;
}
