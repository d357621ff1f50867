import { err, ok, type Result } from '../../shared/result.ts';
import { isPlainObject } from '../../shared/safe-parse-json.ts';
import type { Message, ToolCall } from '../../transcript/message.ts';
import type { InvalidProviderResponse, MappedChatResponse } from '../mapped-chat-response.ts';
import { mapOpenAiFinishReason } from './map-openai-finish-reason.ts';

/**
 * A Chat Completions response (parsed JSON, or rebuilt from stream chunks) as an internal
 * assistant message. Reads `choices[0]`; list content is joined to text; arguments given as
 * objects by lenient servers become JSON strings; `reasoning_content` (DeepSeek, vLLM) and
 * `reasoning` (OpenRouter) are kept as `reasoning`.
 */
export function fromOpenAiChatResponse(
  response: unknown,
): Result<MappedChatResponse, InvalidProviderResponse> {
  if (!isPlainObject(response) || !Array.isArray(response.choices)) {
    return err({
      type: 'InvalidProviderResponse',
      provider: 'openai-compatible',
      details: 'the response has no choices',
    });
  }
  const choice: unknown = response.choices[0];
  if (!isPlainObject(choice) || !isPlainObject(choice.message)) {
    return err({
      type: 'InvalidProviderResponse',
      provider: 'openai-compatible',
      details: 'the response has no choices[0].message',
    });
  }
  const source = choice.message;
  const toolCalls = Array.isArray(source.tool_calls) ? source.tool_calls.flatMap(toToolCall) : [];
  const reasoning =
    typeof source.reasoning_content === 'string' && source.reasoning_content !== ''
      ? source.reasoning_content
      : typeof source.reasoning === 'string' && source.reasoning !== ''
        ? source.reasoning
        : null;
  const message: Message = {
    role: 'assistant',
    content: contentText(source.content, toolCalls.length > 0),
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(reasoning !== null ? { reasoning } : {}),
    ...(Array.isArray(source.reasoning_details) && source.reasoning_details.length > 0
      ? { reasoning_details: source.reasoning_details }
      : {}),
  };
  const rawStopReason = typeof choice.finish_reason === 'string' ? choice.finish_reason : null;
  return ok({
    message,
    stopReason: mapOpenAiFinishReason(rawStopReason),
    rawStopReason,
    usage: isPlainObject(response.usage) ? response.usage : null,
    model: typeof response.model === 'string' ? response.model : '',
    id: typeof response.id === 'string' ? response.id : null,
  });
}

function contentText(content: unknown, hasToolCalls: boolean): string | null {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) =>
        typeof part === 'string'
          ? part
          : isPlainObject(part) && typeof part.text === 'string'
            ? part.text
            : '',
      )
      .join('');
  }
  return hasToolCalls ? null : '';
}

function toToolCall(value: unknown): ToolCall[] {
  if (!isPlainObject(value) || !isPlainObject(value.function)) return [];
  const fn = value.function;
  const args = fn.arguments;
  return [
    {
      id: typeof value.id === 'string' ? value.id : '',
      type: 'function',
      function: {
        name: typeof fn.name === 'string' ? fn.name : '',
        arguments:
          typeof args === 'string' ? args : args === undefined || args === null ? '' : JSON.stringify(args),
      },
    },
  ];
}
