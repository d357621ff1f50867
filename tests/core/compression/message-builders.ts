import type { Summarizer, SummaryRequest } from '#core/compression/summarizer.ts';
import type { Message, ToolCall } from '#core/transcript/message.ts';

export const system = (content = 'You are helpful.'): Message => ({ role: 'system', content });
export const user = (content: string): Message => ({ role: 'user', content });
export const assistant = (content: string | null, toolCalls?: ToolCall[]): Message =>
  toolCalls ? { role: 'assistant', content, tool_calls: toolCalls } : { role: 'assistant', content };
export const toolCall = (
  id: string,
  name = 'terminal',
  args: Record<string, unknown> = { command: 'ls' },
): ToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args) },
});
export const toolResult = (id: string, content: string): Message => ({
  role: 'tool',
  tool_call_id: id,
  content,
});

/** A summariser that records its requests and answers with `answer(request)`. */
export function recordingSummarizer(
  answer: (request: SummaryRequest) => string | Promise<string> = () => 'BODY',
): Summarizer & {
  requests: SummaryRequest[];
} {
  const requests: SummaryRequest[] = [];
  return {
    label: 'test',
    offline: true,
    requests,
    async summarize(request) {
      requests.push(request);
      return answer(request);
    },
  };
}

/** A summariser that always fails with the given error fields. */
export function failingSummarizer(error: { name?: string; message: string; status?: number }): Summarizer & {
  calls: number;
} {
  const summarizer = {
    label: 'failing',
    offline: true,
    calls: 0,
    summarize(): Promise<string> {
      summarizer.calls++;
      return Promise.reject(Object.assign(new Error(error.message), error));
    },
  };
  return summarizer;
}

/** `count` alternating user/assistant messages of about `chars` characters each. */
export function conversation(count: number, chars = 400): Message[] {
  return Array.from({ length: count }, (_, index) =>
    index % 2 === 0 ? user(`u${index} ${'x'.repeat(chars)}`) : assistant(`a${index} ${'y'.repeat(chars)}`),
  );
}
