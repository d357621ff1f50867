import type { StopReason } from '../stop-reason.ts';

/**
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices
 */
export function mapOpenAiFinishReason(finishReason: string | null | undefined): StopReason {
  switch (finishReason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}
