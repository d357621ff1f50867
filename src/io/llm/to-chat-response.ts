import { collectToolCallIds, makeToolCallIdsUnique } from '../../core/providers/make-tool-call-ids-unique.ts';
import type { MappedChatResponse } from '../../core/providers/mapped-chat-response.ts';
import type { ProviderWarning } from '../../core/providers/provider-warning.ts';
import type { Result } from '../../core/shared/result.ts';
import type { Message } from '../../core/transcript/message.ts';
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
 * buckets for the route, an unreadable response turned into an `invalid-response` LlmError, and
 * tool call ids made unique against the reply and the request's `history` (a provider that sends
 * empty or repeated ids would otherwise bind one call's result to another).
 */
export function toChatResponse(
  mapped: Result<MappedChatResponse, { details: string }>,
  warnings: ProviderWarning[],
  call: LlmCallContext,
  route: UsageRoute,
  history: readonly Message[],
): ChatResponse {
  if (!mapped.ok) {
    throw createLlmError(
      { kind: 'invalid-response', message: `Unexpected response: ${mapped.error.details}` },
      call,
    );
  }
  const response = mapped.value;
  const unique = makeToolCallIdsUnique(response.message, collectToolCallIds(history));
  return {
    message: unique.message,
    usage: { raw: response.usage, canonical: normalizeUsage(response.usage, route, call.preset) },
    stopReason: response.stopReason,
    rawStopReason: response.rawStopReason,
    model: response.model || call.model,
    warnings: [...warnings, ...unique.warnings],
  };
}
