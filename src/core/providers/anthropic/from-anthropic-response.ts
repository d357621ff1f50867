import { err, ok, type Result } from '../../shared/result.ts';
import { isPlainObject } from '../../shared/safe-parse-json.ts';
import type { Message, ToolCall } from '../../transcript/message.ts';
import type { InvalidProviderResponse, MappedChatResponse } from '../mapped-chat-response.ts';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.ts';

/**
 * An Anthropic Messages response (parsed JSON, or the message rebuilt from a stream) as an
 * internal assistant message: text blocks joined, `tool_use` blocks as `tool_calls` with JSON
 * string arguments, thinking kept as `reasoning` plus the signed blocks in `reasoning_details`
 * so that they can be replayed.
 */
export function fromAnthropicResponse(
  response: unknown,
): Result<MappedChatResponse, InvalidProviderResponse> {
  if (!isPlainObject(response) || !Array.isArray(response.content)) {
    return err({
      type: 'InvalidProviderResponse',
      provider: 'anthropic',
      details: 'the response has no content list',
    });
  }
  const texts: string[] = [];
  const thinking: string[] = [];
  const reasoningDetails: Record<string, unknown>[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of response.content as unknown[]) {
    if (!isPlainObject(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (block.type === 'tool_use' && typeof block.name === 'string') {
      toolCalls.push({
        // A missing id is kept as empty: the client names it (`makeToolCallIdsUnique`).
        id: typeof block.id === 'string' ? block.id : '',
        type: 'function',
        function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) },
      });
    } else if (block.type === 'thinking' && typeof block.thinking === 'string') {
      thinking.push(block.thinking);
      reasoningDetails.push({ type: 'thinking', thinking: block.thinking, signature: block.signature ?? '' });
    } else if (block.type === 'redacted_thinking' && typeof block.data === 'string') {
      reasoningDetails.push({ type: 'redacted_thinking', data: block.data });
    }
  }
  const text = texts.join('');
  const message: Message = {
    role: 'assistant',
    content: text === '' && toolCalls.length > 0 ? null : text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(thinking.length > 0 ? { reasoning: thinking.join('\n') } : {}),
    ...(reasoningDetails.length > 0 ? { reasoning_details: reasoningDetails } : {}),
  };
  const rawStopReason = typeof response.stop_reason === 'string' ? response.stop_reason : null;
  return ok({
    message,
    stopReason: mapAnthropicStopReason(rawStopReason),
    rawStopReason,
    usage: isPlainObject(response.usage) ? response.usage : null,
    model: typeof response.model === 'string' ? response.model : '',
    id: typeof response.id === 'string' ? response.id : null,
  });
}
