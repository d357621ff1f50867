import { isPlainObject, safeParseJson } from '../../shared/safe-parse-json.ts';
import type { ChatStreamDelta } from '../chat-stream-delta.ts';

/**
 * Rebuilds a Chat Completions response from its SSE `data:` payloads: content and reasoning
 * deltas are concatenated, tool-call deltas merged by `index`, and usage taken from the chunk
 * that carries it (the last one, with empty `choices`, when `stream_options.include_usage`).
 * Mutable state, no IO.
 */
export interface ChatCompletionStreamState {
  id: string | null;
  model: string;
  content: string;
  reasoning: string;
  toolCalls: Array<{ id: string; name: string; arguments: string }>;
  finishReason: string | null;
  usage: Record<string, unknown> | null;
  /** True once `data: [DONE]` arrived: a stream that ends without it was cut. */
  complete: boolean;
  /** An `{error:{…}}` chunk, which OpenRouter and others send when they fail mid-stream. */
  error: Record<string, unknown> | null;
  /** Payloads that were not JSON; counted, not fatal. */
  malformedChunkCount: number;
}

export function createChatCompletionStreamState(): ChatCompletionStreamState {
  return {
    id: null,
    model: '',
    content: '',
    reasoning: '',
    toolCalls: [],
    finishReason: null,
    usage: null,
    complete: false,
    error: null,
    malformedChunkCount: 0,
  };
}

/** Applies one `data:` payload (a JSON chunk or `[DONE]`) and returns the deltas it carries. */
export function applyChatCompletionStreamData(
  state: ChatCompletionStreamState,
  data: string,
): ChatStreamDelta[] {
  if (data.trim() === '[DONE]') {
    state.complete = true;
    return [];
  }
  const parsed = safeParseJson(data);
  if (!parsed.ok) {
    state.malformedChunkCount += 1;
    return [];
  }
  return applyChatCompletionChunk(state, parsed.value);
}

export function applyChatCompletionChunk(
  state: ChatCompletionStreamState,
  chunk: unknown,
): ChatStreamDelta[] {
  if (!isPlainObject(chunk)) return [];
  if (isPlainObject(chunk.error)) {
    state.error = chunk.error;
    return [];
  }
  if (typeof chunk.id === 'string' && state.id === null) state.id = chunk.id;
  if (typeof chunk.model === 'string' && chunk.model !== '') state.model = chunk.model;
  if (isPlainObject(chunk.usage)) state.usage = chunk.usage;
  const choice: unknown = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
  if (!isPlainObject(choice)) return [];
  if (typeof choice.finish_reason === 'string') state.finishReason = choice.finish_reason;
  const delta = isPlainObject(choice.delta)
    ? choice.delta
    : isPlainObject(choice.message)
      ? choice.message
      : {};
  const deltas: ChatStreamDelta[] = [];
  const reasoning = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : delta.reasoning;
  if (typeof reasoning === 'string' && reasoning !== '') {
    state.reasoning += reasoning;
    deltas.push({ type: 'reasoning-delta', text: reasoning });
  }
  if (typeof delta.content === 'string' && delta.content !== '') {
    state.content += delta.content;
    deltas.push({ type: 'text-delta', text: delta.content });
  }
  if (Array.isArray(delta.tool_calls)) {
    for (const callDelta of delta.tool_calls as unknown[]) {
      if (isPlainObject(callDelta)) deltas.push(applyToolCallDelta(state, callDelta));
    }
  }
  return deltas;
}

function applyToolCallDelta(
  state: ChatCompletionStreamState,
  callDelta: Record<string, unknown>,
): ChatStreamDelta {
  const id = typeof callDelta.id === 'string' && callDelta.id !== '' ? callDelta.id : undefined;
  const fn = isPlainObject(callDelta.function) ? callDelta.function : {};
  const name = typeof fn.name === 'string' && fn.name !== '' ? fn.name : undefined;
  const args =
    typeof fn.arguments === 'string'
      ? fn.arguments
      : isPlainObject(fn.arguments)
        ? JSON.stringify(fn.arguments)
        : '';
  // Some servers omit `index` and send each call whole: a new id then means a new call.
  let index = typeof callDelta.index === 'number' ? callDelta.index : state.toolCalls.length - 1;
  if (
    typeof callDelta.index !== 'number' &&
    (index < 0 || (id !== undefined && state.toolCalls[index]?.id !== id))
  ) {
    index = state.toolCalls.length;
  }
  const call = (state.toolCalls[index] ??= { id: '', name: '', arguments: '' });
  if (id !== undefined) call.id = id;
  // Some servers repeat the name on every delta; the first one is the name.
  if (name !== undefined && call.name === '') call.name = name;
  call.arguments += args;
  return {
    type: 'tool-call-delta',
    index,
    ...(id !== undefined ? { id } : {}),
    ...(name !== undefined ? { name } : {}),
    argumentsDelta: args,
  };
}

/** The response rebuilt so far, in the non-streaming shape `fromOpenAiChatResponse` reads. */
export function chatCompletionStreamResponse(state: ChatCompletionStreamState): Record<string, unknown> {
  const toolCalls = state.toolCalls
    .filter((call) => call !== undefined)
    .map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  return {
    id: state.id,
    object: 'chat.completion',
    model: state.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: state.content === '' && toolCalls.length > 0 ? null : state.content,
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
          ...(state.reasoning !== '' ? { reasoning_content: state.reasoning } : {}),
        },
        finish_reason: state.finishReason,
      },
    ],
    ...(state.usage ? { usage: state.usage } : {}),
  };
}

/** Convenience over a finished list of `data:` payloads. */
export function accumulateChatCompletionChunks(payloads: readonly string[]): ChatCompletionStreamState {
  const state = createChatCompletionStreamState();
  for (const payload of payloads) applyChatCompletionStreamData(state, payload);
  return state;
}
