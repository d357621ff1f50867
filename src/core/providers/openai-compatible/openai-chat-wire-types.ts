/**
 * The subset of the OpenAI Chat Completions API that Context Lab sends. Messages stay in the
 * internal shape, which is this API's own.
 *
 * @see https://platform.openai.com/docs/api-reference/chat/create
 */
import type { Message } from '../../transcript/message.ts';

export interface OpenAiToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
  [key: string]: unknown;
}

export interface OpenAiChatRequestBody {
  model: string;
  messages: Message[];
  max_tokens?: number;
  max_completion_tokens?: number;
  tools?: OpenAiToolDefinition[];
  /** Only beside `tools`: the API refuses a tool choice with no tools. */
  tool_choice?: 'none';
  stream: boolean;
  /** Asks for a last chunk carrying usage; without it a streamed reply has no usage at all. */
  stream_options?: { include_usage: true };
}
