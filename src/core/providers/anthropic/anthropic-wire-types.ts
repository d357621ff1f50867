/**
 * The subset of the Anthropic Messages API that Context Lab sends and reads, typed here so the
 * pure core does not depend on the SDK.
 *
 * @see https://docs.anthropic.com/en/api/messages
 */

/** `{type:'ephemeral'}` is the 5-minute cache; `ttl:'1h'` asks for the 1-hour cache. */
export interface AnthropicCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  cache_control?: AnthropicCacheControl;
}

export type AnthropicImageSource =
  { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string };

export interface AnthropicImageBlock {
  type: 'image';
  source: AnthropicImageSource;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string | Array<AnthropicTextBlock | AnthropicImageBlock>;
  cache_control?: AnthropicCacheControl;
}

/** Extended thinking, replayable only with the signature the API gave it. */
export interface AnthropicThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface AnthropicRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

/** Native blocks met in imported content (documents, search results) and passed through as is. */
export interface AnthropicPassThroughBlock {
  type: 'document' | 'search_result';
  cache_control?: AnthropicCacheControl;
  [key: string]: unknown;
}

export type AnthropicContentBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicPassThroughBlock;

export interface AnthropicMessageParam {
  role: 'user' | 'assistant';
  content: AnthropicContentBlock[];
}

export interface AnthropicToolDefinition {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
  cache_control?: AnthropicCacheControl;
}

export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  system?: AnthropicTextBlock[];
  messages: AnthropicMessageParam[];
  tools?: AnthropicToolDefinition[];
  /** Only beside `tools`: the API refuses a tool choice with no tools. */
  tool_choice?: { type: 'none' };
  stream: boolean;
}

/** Usage as the API reports it; the cache fields are absent or null on older models and proxies. */
export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  [key: string]: unknown;
}
