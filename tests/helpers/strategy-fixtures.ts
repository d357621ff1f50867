/**
 * Small builders and checks for strategy tests: hand-made messages, token counts fixed per
 * message (so expected values can be worked out by hand), a summariser that records its
 * prompts, and a tool-pair check over a compacted conversation.
 */
import type { Summarizer, SummaryRequest } from '#core/compression/summarizer.ts';
import { INITIAL_COMPRESSOR_STATE } from '#core/compression/compressor-state.ts';
import { DEFAULT_COMPRESSION_CONFIG, type CompressionConfig } from '#core/config/compression-config.ts';
import type { MessageTokens } from '#core/strategies/strategy.ts';
import type { Message } from '#core/transcript/message.ts';

export const system = (content: string): Message => ({ role: 'system', content });
export const user = (content: string): Message => ({ role: 'user', content });
export const assistant = (content: string): Message => ({ role: 'assistant', content });

/** An assistant turn calling tools: `[id, name, arguments object]` each. */
export function calls(
  list: readonly (readonly [string, string, Record<string, unknown>])[],
  content: string | null = null,
): Message {
  return {
    role: 'assistant',
    content,
    tool_calls: list.map(([id, name, args]) => ({
      id,
      type: 'function',
      function: { name, arguments: JSON.stringify(args) },
    })),
  };
}

export const result = (id: string, content: string, extra: Partial<Message> = {}): Message => ({
  role: 'tool',
  tool_call_id: id,
  content,
  ...extra,
});

/** Token counts fixed per message; the request is their sum unless given. */
export function fixedTokens(perMessage: readonly number[], request?: number): MessageTokens {
  return {
    of: (index) => perMessage[index] ?? 0,
    request: request ?? perMessage.reduce((sum, tokens) => sum + tokens, 0),
    exact: true,
  };
}

export function configWith(
  contextLength: number,
  strategyOptions: Record<string, number> = {},
  extra: Partial<CompressionConfig> = {},
): CompressionConfig {
  return { ...DEFAULT_COMPRESSION_CONFIG, contextLength, strategyOptions, ...extra };
}

export const initialState = INITIAL_COMPRESSOR_STATE;

/** A provider stand-in: answers with `reply` and keeps every request it was sent. */
export function recordingSummarizer(reply: string): { summarizer: Summarizer; requests: SummaryRequest[] } {
  const requests: SummaryRequest[] = [];
  return {
    requests,
    summarizer: {
      label: 'recording',
      offline: false,
      summarize: (request) => {
        requests.push(request);
        return Promise.resolve(reply);
      },
    },
  };
}

/** A summariser that fails the test if it is called. */
export const forbiddenSummarizer: Summarizer = {
  label: 'forbidden',
  offline: true,
  summarize: () => Promise.reject(new Error('the summariser must not be called')),
};

/**
 * Tool-pair problems in a conversation as a provider would reject it: a result without its
 * call right before it, or a call whose result never follows.
 */
export function toolPairProblems(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  let open = new Set<string>();
  const closeOpen = (at: number): void => {
    if (open.size > 0) problems.push(`calls ${[...open].join(', ')} unanswered before #${at}`);
    open = new Set();
  };
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      if (!open.delete(message.tool_call_id ?? '')) problems.push(`orphan result #${index}`);
      return;
    }
    closeOpen(index);
    for (const call of message.role === 'assistant' ? (message.tool_calls ?? []) : []) open.add(call.id);
  });
  closeOpen(messages.length);
  return problems;
}

/** Letters and digits only: how a quoted ask is compared after quoting and line folding. */
export const normalizedText = (text: string): string => text.replace(/[^A-Za-z0-9]+/g, '').toLowerCase();
