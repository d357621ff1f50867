import type { MappedChatResponse } from '../../core/providers/mapped-chat-response.ts';
import type { ProviderWarning } from '../../core/providers/provider-warning.ts';
import type { Result } from '../../core/shared/result.ts';
import { normalizeUsage } from '../../core/usage/normalize-usage.ts';
import type { ChatResponse } from './chat-client.ts';
import { createLlmError, type LlmCallContext } from './create-llm-error.ts';

/** How Hermes names the route when it normalises this response's usage (§9). */
export interface UsageRoute {
  provider: string;
  apiMode: 'anthropic_messages' | 'chat_completions';
}

/**
 * A mapped provider response as the client's `ChatResponse`: usage normalised into canonical
 * buckets for the route, an unreadable response turned into an `invalid-response` LlmError.
 */
export function toChatResponse(
  mapped: Result<MappedChatResponse, { details: string }>,
  warnings: ProviderWarning[],
  call: LlmCallContext,
  route: UsageRoute,
): ChatResponse {
  if (!mapped.ok) {
    throw createLlmError(
      { kind: 'invalid-response', message: `Unexpected response: ${mapped.error.details}` },
      call,
    );
  }
  const response = mapped.value;
  return {
    message: response.message,
    usage: { raw: response.usage, canonical: normalizeUsage(response.usage, route, call.preset) },
    stopReason: response.stopReason,
    rawStopReason: response.rawStopReason,
    model: response.model || call.model,
    warnings,
  };
}
