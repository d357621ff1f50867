import type { ChatClient, ChatRequest, ChatResponse } from '../llm/chat-client.ts';
import { abortable } from './abortable.ts';

export interface ObservedChatClientOptions {
  /** Told about every successful response. */
  readonly onResponse: (response: ChatResponse) => void;
  /** The largest `max_tokens` this request may ask for; requests above it are lowered. */
  readonly maxTokensFor?: (request: ChatRequest) => number;
}

/**
 * The same client for the summariser's calls, with three additions: every response is
 * reported (summary calls are billed like any other, against the session being compacted), a
 * cancel ends the call at once (see `abortable`), and the output cap is kept inside the room
 * the window leaves — a 16K summary cap on a 32K window would otherwise be refused outright.
 */
export function observedChatClient(client: ChatClient, options: ObservedChatClientOptions): ChatClient {
  return {
    provider: client.provider,
    model: client.model,
    async send(request, handlers, signal) {
      const cap = options.maxTokensFor?.(request);
      const fitted = cap !== undefined && cap < request.maxTokens ? { ...request, maxTokens: cap } : request;
      const sending = client.send(fitted, handlers, signal);
      const response = await (signal ? abortable(sending, signal) : sending);
      options.onResponse(response);
      return response;
    },
    ...(client.countTokens ? { countTokens: client.countTokens.bind(client) } : {}),
  };
}
