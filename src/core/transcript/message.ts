/**
 * The internal message model: OpenAI chat-completions dicts, exactly as Hermes carries them.
 *
 * Keys keep their wire spelling (`tool_calls`, `tool_call_id`) on purpose: Hermes measures a
 * message as the length of the Python repr of this very dict, so the set of keys present is
 * part of the behaviour. Extra keys (`reasoning`, `tool_name`, `_compressed_summary`, …) are
 * preserved as they come. Keys starting with `_` are in-process flags, removed before any request.
 */
export type MessageRole = 'system' | 'user' | 'assistant' | 'tool' | 'developer' | 'function';

export interface ToolCallFunction {
  name: string;
  /** A JSON string, as on the wire. It may be malformed in imported data. */
  arguments: string;
}

export interface ToolCall {
  id: string;
  type: 'function';
  function: ToolCallFunction;
  /** Responses-API style id, preferred over `id` when matching results (2026-07). */
  call_id?: string;
  [key: string]: unknown;
}

export interface TextPart {
  type: 'text';
  text: string;
  [key: string]: unknown;
}

export interface ImageUrlPart {
  type: 'image_url';
  image_url: { url: string; detail?: string };
  [key: string]: unknown;
}

/** Any content part. Unknown part types are kept verbatim. */
export type ContentPart = TextPart | ImageUrlPart | { type: string; [key: string]: unknown };

export type MessageContent = string | null | ContentPart[] | { [key: string]: unknown };

export interface Message {
  role: MessageRole | (string & {});
  content?: MessageContent;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  /** Tool messages: the tool's name (Hermes carries both `name` and `tool_name`). */
  name?: string;
  tool_name?: string;
  [key: string]: unknown;
}

/** Plain text of a message's content: strings as is, text parts joined with newlines. */
export function messageText(message: Message): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const texts: string[] = [];
    for (const part of content) {
      if (typeof part === 'string') texts.push(part);
      else if (part && typeof part === 'object' && typeof part.text === 'string') texts.push(part.text);
    }
    return texts.join('\n');
  }
  return '';
}

export const isToolMessage = (message: Message): boolean => message.role === 'tool';

export const hasToolCalls = (message: Message): boolean =>
  message.role === 'assistant' && Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
