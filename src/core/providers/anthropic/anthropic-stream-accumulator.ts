import { isPlainObject, safeParseJson } from '../../shared/safe-parse-json.ts';
import type { ChatStreamDelta } from '../chat-stream-delta.ts';
import type { ProviderWarning } from '../provider-warning.ts';

/**
 * Rebuilds an Anthropic message from its SSE events (`message_start`, `content_block_*`,
 * `message_delta`, `message_stop`; `ping` is ignored). Mutable state, no IO: the client feeds
 * events as they arrive and reads the deltas back for its handlers.
 *
 * @see https://docs.anthropic.com/en/api/messages-streaming
 */
export interface AnthropicStreamState {
  message: Record<string, unknown> | null;
  blocks: Array<Record<string, unknown>>;
  /** Accumulated `input_json_delta` text per content-block index. */
  partialJsonByBlock: Map<number, string>;
  /** The position of each tool_use block among the tool calls, by content-block index. */
  toolCallIndexByBlock: Map<number, number>;
  usage: Record<string, unknown>;
  stopReason: string | null;
  stopSequence: string | null;
  /** True once `message_stop` arrived: a stream that ends without it was cut. */
  complete: boolean;
  /** The `error` event's body, when the server reported a failure mid-stream. */
  error: Record<string, unknown> | null;
  warnings: ProviderWarning[];
}

export function createAnthropicStreamState(): AnthropicStreamState {
  return {
    message: null,
    blocks: [],
    partialJsonByBlock: new Map(),
    toolCallIndexByBlock: new Map(),
    usage: {},
    stopReason: null,
    stopSequence: null,
    complete: false,
    error: null,
    warnings: [],
  };
}

/** Applies one event and returns the delta it carries for handlers, if any. */
export function applyAnthropicStreamEvent(
  state: AnthropicStreamState,
  event: unknown,
): ChatStreamDelta | null {
  if (!isPlainObject(event)) return null;
  switch (event.type) {
    case 'message_start': {
      const message = isPlainObject(event.message) ? event.message : {};
      state.message = message;
      if (isPlainObject(message.usage)) mergeUsage(state.usage, message.usage);
      return null;
    }
    case 'content_block_start': {
      const index = typeof event.index === 'number' ? event.index : state.blocks.length;
      const block: Record<string, unknown> = isPlainObject(event.content_block)
        ? { ...event.content_block }
        : { type: 'unknown' };
      state.blocks[index] = block;
      if (block.type === 'tool_use') {
        const toolIndex = state.toolCallIndexByBlock.size;
        state.toolCallIndexByBlock.set(index, toolIndex);
        state.partialJsonByBlock.set(index, '');
        return {
          type: 'tool-call-delta',
          index: toolIndex,
          id: typeof block.id === 'string' ? block.id : '',
          name: typeof block.name === 'string' ? block.name : '',
          argumentsDelta: '',
        };
      }
      if (block.type === 'text' && typeof block.text === 'string' && block.text !== '') {
        return { type: 'text-delta', text: block.text };
      }
      return null;
    }
    case 'content_block_delta':
      return applyBlockDelta(state, event);
    case 'content_block_stop': {
      if (typeof event.index === 'number') finishToolInput(state, event.index);
      return null;
    }
    case 'message_delta': {
      const delta = isPlainObject(event.delta) ? event.delta : {};
      if (typeof delta.stop_reason === 'string') state.stopReason = delta.stop_reason;
      if (typeof delta.stop_sequence === 'string') state.stopSequence = delta.stop_sequence;
      if (isPlainObject(event.usage)) mergeUsage(state.usage, event.usage);
      return null;
    }
    case 'message_stop':
      state.complete = true;
      return null;
    case 'error':
      state.error = isPlainObject(event.error) ? event.error : { message: 'stream error' };
      return null;
    default:
      return null;
  }
}

function applyBlockDelta(
  state: AnthropicStreamState,
  event: Record<string, unknown>,
): ChatStreamDelta | null {
  const index = typeof event.index === 'number' ? event.index : -1;
  const block = state.blocks[index];
  const delta = isPlainObject(event.delta) ? event.delta : {};
  if (!block) return null;
  switch (delta.type) {
    case 'text_delta': {
      const text = typeof delta.text === 'string' ? delta.text : '';
      block.text = `${typeof block.text === 'string' ? block.text : ''}${text}`;
      return text === '' ? null : { type: 'text-delta', text };
    }
    case 'input_json_delta': {
      const partial = typeof delta.partial_json === 'string' ? delta.partial_json : '';
      state.partialJsonByBlock.set(index, `${state.partialJsonByBlock.get(index) ?? ''}${partial}`);
      return {
        type: 'tool-call-delta',
        index: state.toolCallIndexByBlock.get(index) ?? 0,
        argumentsDelta: partial,
      };
    }
    case 'thinking_delta': {
      const text = typeof delta.thinking === 'string' ? delta.thinking : '';
      block.thinking = `${typeof block.thinking === 'string' ? block.thinking : ''}${text}`;
      return text === '' ? null : { type: 'reasoning-delta', text };
    }
    case 'signature_delta':
      block.signature = `${typeof block.signature === 'string' ? block.signature : ''}${typeof delta.signature === 'string' ? delta.signature : ''}`;
      return null;
    default:
      return null;
  }
}

function finishToolInput(state: AnthropicStreamState, index: number): void {
  const block = state.blocks[index];
  const json = state.partialJsonByBlock.get(index);
  if (!block || block.type !== 'tool_use' || json === undefined) return;
  state.partialJsonByBlock.delete(index);
  if (json.trim() === '') return;
  const parsed = safeParseJson(json);
  if (parsed.ok && isPlainObject(parsed.value)) block.input = parsed.value;
  else {
    block.input = {};
    state.warnings.push({
      type: 'other',
      feature: 'tool_use.input',
      details: `streamed input of tool call "${String(block.name)}" is not a JSON object; kept as {}`,
    });
  }
}

/** Usage fields arrive in `message_start` and cumulatively in `message_delta`: later non-null values win. */
function mergeUsage(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    if (value !== null && value !== undefined) target[key] = value;
  }
}

/** The message rebuilt so far, in the non-streaming response shape. */
export function anthropicStreamMessage(state: AnthropicStreamState): Record<string, unknown> {
  // Tool inputs of blocks that never got their stop event (a cut stream) are parsed here too.
  for (const index of [...state.partialJsonByBlock.keys()]) finishToolInput(state, index);
  return {
    ...(state.message ?? {}),
    type: 'message',
    role: 'assistant',
    content: state.blocks.filter((block) => block !== undefined),
    stop_reason: state.stopReason,
    stop_sequence: state.stopSequence,
    usage: { ...state.usage },
  };
}

/** Convenience over a finished list of events. */
export function accumulateAnthropicStreamEvents(events: readonly unknown[]): AnthropicStreamState {
  const state = createAnthropicStreamState();
  for (const event of events) applyAnthropicStreamEvent(state, event);
  return state;
}
