/**
 * Failure and reply injection for the mock provider. `POST /__script` with a JSON list of steps
 * queues them; each generation request (`/v1/messages`, `/v1/chat/completions`) takes the next
 * step. `count_tokens` never consumes a step.
 */
export type MockScriptStep =
  /** 429 with `retry-after` (seconds) and the provider's rate-limit body. */
  | { kind: 'rate-limit'; retryAfterSeconds?: number }
  /** 500 (or another 5xx) with the provider's server-error body. */
  | { kind: 'server-error'; status?: number }
  /** Anthropic 529 `overloaded_error`; on the OpenAI route a 503 "overloaded". */
  | { kind: 'overloaded' }
  /** Never answer: the request hangs until the client aborts (or the server closes). */
  | { kind: 'timeout' }
  /**
   * Stream part of the reply, then stop: `destroy` drops the connection (a network cut),
   * `end` closes the response cleanly but without the final events, `stall` keeps the
   * connection open and sends nothing more (a provider gone silent mid-reply; released when
   * the client goes away). Non-streaming requests get their connection dropped.
   */
  | { kind: 'stream-cut'; afterEvents?: number; mode?: 'destroy' | 'end' | 'stall' }
  /**
   * Stream part of the reply, then an error in the stream itself (Anthropic `event: error`
   * with `overloaded_error`; OpenAI-style `data: {"error":{…}}`), then end. Non-streaming
   * requests get the overloaded error as a plain error response.
   */
  | { kind: 'stream-error'; afterEvents?: number }
  /** Anthropic's output-cap 400: `max_tokens: N > context_window: M - input_tokens: K = available_tokens: A`. */
  | { kind: 'output-cap'; maxTokens?: number; contextWindow?: number; inputTokens?: number }
  /** The provider's real input-overflow 400, whatever the request's size. */
  | { kind: 'context-overflow'; contextWindow?: number; inputTokens?: number }
  /**
   * A successful reply with this text and/or these tool calls (a summary, a tool-using turn).
   * A call's `id` replaces the mock's generated one, so a test can send empty or repeated ids
   * as some providers do.
   */
  | {
      kind: 'reply';
      text?: string;
      toolCalls?: Array<{ name: string; arguments?: Record<string, unknown>; id?: string }>;
      stopReason?: 'end' | 'length';
    }
  /** Any status and JSON body, for cases the named steps do not cover. */
  | { kind: 'error'; status: number; body: unknown; headers?: Record<string, string> };

export const MOCK_SCRIPT_KINDS: ReadonlySet<string> = new Set([
  'rate-limit',
  'server-error',
  'overloaded',
  'timeout',
  'stream-cut',
  'stream-error',
  'output-cap',
  'context-overflow',
  'reply',
  'error',
]);

export function isMockScriptStep(value: unknown): value is MockScriptStep {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { kind?: unknown }).kind === 'string' &&
    MOCK_SCRIPT_KINDS.has((value as { kind: string }).kind)
  );
}
