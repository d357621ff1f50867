import type { ChatStreamDelta } from '../../core/providers/chat-stream-delta.ts';
import type { ProviderWarning } from '../../core/providers/provider-warning.ts';
import type { StopReason } from '../../core/providers/stop-reason.ts';
import type { Message } from '../../core/transcript/message.ts';
import type { ToolSchema } from '../../core/transcript/transcript.ts';
import type { CanonicalUsage } from '../../core/usage/canonical-usage.ts';

export type ChatProvider = 'anthropic' | 'openai-compatible';

export interface ChatRequest {
  /** Internal messages, possibly marked by `applyCacheControl`. */
  messages: Message[];
  maxTokens: number;
  /** Overrides the client's model for this call (e.g. an auxiliary summary model). */
  model?: string;
  systemPrompt?: string;
  tools?: ToolSchema[];
  /** `'none'`: `tools` stay defined (a history with tool calls needs them) but none may be called. */
  toolChoice?: 'none';
  /** Default true. */
  stream?: boolean;
  /** True when `applyCacheControl` marked `messages` for this call; otherwise markers are stripped. */
  cacheMarkersApplied?: boolean;
  /** Lets the error classifier apply Hermes' size heuristics (generic 400s, disconnects of large sessions). */
  errorContext?: { approxTokens?: number; contextLength?: number };
}

export type ToolCallDelta = Extract<ChatStreamDelta, { type: 'tool-call-delta' }>;

export interface ChatStreamHandlers {
  onTextDelta?(text: string): void;
  onToolCallDelta?(delta: ToolCallDelta): void;
  onReasoningDelta?(text: string): void;
}

export interface ChatResponse {
  message: Message;
  usage: {
    /** The provider's usage object as received (null when it sent none). */
    raw: Record<string, unknown> | null;
    canonical: CanonicalUsage;
  };
  stopReason: StopReason;
  rawStopReason: string | null;
  /** The model that answered, as the provider names it. */
  model: string;
  /** Non-fatal mapping problems (dropped cache markers, unparseable tool arguments, …). */
  warnings: ProviderWarning[];
}

/**
 * One provider connection. `send` streams by default, reporting deltas to the handlers, and
 * resolves with the whole reply; every failure rejects with an `LlmError`.
 */
export interface ChatClient {
  readonly provider: ChatProvider;
  readonly model: string;
  send(request: ChatRequest, handlers?: ChatStreamHandlers, signal?: AbortSignal): Promise<ChatResponse>;
  /** Exact input tokens from the provider, where it offers a counting endpoint (Anthropic: free). */
  countTokens?(request: Omit<ChatRequest, 'maxTokens' | 'stream'>, signal?: AbortSignal): Promise<number>;
}

/** Calls the handler that matches a delta. */
export function dispatchDelta(delta: ChatStreamDelta, handlers: ChatStreamHandlers | undefined): void {
  if (!handlers) return;
  switch (delta.type) {
    case 'text-delta':
      handlers.onTextDelta?.(delta.text);
      return;
    case 'reasoning-delta':
      handlers.onReasoningDelta?.(delta.text);
      return;
    case 'tool-call-delta':
      handlers.onToolCallDelta?.(delta);
      return;
  }
}
