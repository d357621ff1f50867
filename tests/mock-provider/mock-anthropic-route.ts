import type { IncomingMessage, ServerResponse } from 'node:http';
import { simulatePromptCache, type CacheSegment } from '#core/caching/simulate-prompt-cache.ts';
import type { MockContext } from './mock-context.ts';
import { anthropicFrame, dropConnection, sendEventStream, sendJson } from './mock-http.ts';
import { jsonPieces, planMockReply, streamPieces, type MockReply } from './mock-reply.ts';
import { markerFreeJson, mockTokenCount } from './mock-token-count.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function anthropicError(
  response: ServerResponse,
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  sendJson(
    response,
    status,
    { type: 'error', error: { type, message } },
    { 'request-id': 'req_mock', ...headers },
  );
}

/**
 * The request as cache segments, in the API's prefix order (tools, system, messages), one per
 * block. A block with `cache_control` (or a tool_result holding one) ends a breakpoint.
 */
export function anthropicSegments(body: Json): CacheSegment[] {
  const segments: CacheSegment[] = [];
  const add = (block: unknown): void => {
    const marker = findMarker(block);
    const text = markerFreeJson(block);
    segments.push({
      text,
      tokens: mockTokenCount(text),
      breakpoint: marker !== null,
      ...(marker?.ttl === '1h' ? { ttl: '1h' as const } : {}),
    });
  };
  if (Array.isArray(body.tools)) body.tools.forEach(add);
  if (typeof body.system === 'string') add({ type: 'text', text: body.system });
  else if (Array.isArray(body.system)) body.system.forEach(add);
  if (Array.isArray(body.messages)) {
    for (const message of body.messages) {
      if (!isObject(message)) continue;
      if (typeof message.content === 'string') add({ type: 'text', text: message.content });
      else if (Array.isArray(message.content)) message.content.forEach(add);
    }
  }
  return segments;
}

function findMarker(block: unknown): { ttl?: unknown } | null {
  if (!isObject(block)) return null;
  if (isObject(block.cache_control)) return block.cache_control;
  if (Array.isArray(block.content)) {
    for (const inner of block.content)
      if (isObject(inner) && isObject(inner.cache_control)) return inner.cache_control;
  }
  return null;
}

function lastUserText(body: Json): string {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message: unknown = messages[index];
    if (!isObject(message) || message.role !== 'user') continue;
    if (typeof message.content === 'string') return message.content;
    if (Array.isArray(message.content)) {
      const texts = message.content
        .filter((block): block is Json => isObject(block) && block.type === 'text')
        .map((block) => String(block.text));
      if (texts.length > 0) return texts.join('\n');
      return 'a tool result';
    }
  }
  return '';
}

export function handleAnthropicCountTokens(
  _request: IncomingMessage,
  response: ServerResponse,
  body: unknown,
): void {
  if (!isObject(body) || !Array.isArray(body.messages)) {
    anthropicError(response, 400, 'invalid_request_error', 'messages: Field required');
    return;
  }
  const inputTokens = anthropicSegments(body).reduce((sum, segment) => sum + segment.tokens, 0);
  sendJson(response, 200, { input_tokens: inputTokens });
}

/**
 * The Messages API's tool rules, checked before anything is generated: a history with
 * `tool_use` / `tool_result` blocks must define tools, and a tool choice needs tools to choose
 * from. A refused request uses no script step.
 */
function toolRuleRefusal(body: Record<string, unknown>): string | null {
  const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
  if (hasTools) return null;
  if (body.tool_choice !== undefined)
    return 'tool_choice: tool_choice may only be specified while providing tools.';
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const hasToolBlocks = messages.some(
    (message) =>
      isObject(message) &&
      Array.isArray(message.content) &&
      message.content.some(
        (block) => isObject(block) && (block.type === 'tool_use' || block.type === 'tool_result'),
      ),
  );
  return hasToolBlocks
    ? 'Requests which include `tool_use` or `tool_result` blocks must define tools.'
    : null;
}

export function handleAnthropicMessages(
  _request: IncomingMessage,
  response: ServerResponse,
  body: unknown,
  context: MockContext,
): void {
  if (
    !isObject(body) ||
    typeof body.model !== 'string' ||
    !Array.isArray(body.messages) ||
    typeof body.max_tokens !== 'number'
  ) {
    anthropicError(response, 400, 'invalid_request_error', 'model, max_tokens and messages are required');
    return;
  }
  const toolRefusal = toolRuleRefusal(body);
  if (toolRefusal !== null) {
    anthropicError(response, 400, 'invalid_request_error', toolRefusal);
    return;
  }
  const step = context.nextStep();
  const segments = anthropicSegments(body);
  const inputTotal = segments.reduce((sum, segment) => sum + segment.tokens, 0);
  const window = context.config.contextWindow;
  switch (step?.kind) {
    case 'rate-limit': {
      const seconds = step.retryAfterSeconds ?? 1;
      anthropicError(
        response,
        429,
        'rate_limit_error',
        'Number of request tokens has exceeded your per-minute rate limit',
        {
          'retry-after': String(seconds),
        },
      );
      return;
    }
    case 'server-error':
      anthropicError(response, step.status ?? 500, 'api_error', 'Internal server error');
      return;
    case 'overloaded':
      anthropicError(response, 529, 'overloaded_error', 'Overloaded');
      return;
    case 'timeout':
      context.hanging.add(response);
      response.on('close', () => context.hanging.delete(response));
      return;
    case 'output-cap': {
      const contextWindow = step.contextWindow ?? window;
      const inputTokens = step.inputTokens ?? inputTotal;
      const maxTokens = step.maxTokens ?? body.max_tokens;
      anthropicError(
        response,
        400,
        'invalid_request_error',
        `max_tokens: ${maxTokens} > context_window: ${contextWindow} - input_tokens: ${inputTokens} = available_tokens: ${contextWindow - inputTokens}`,
      );
      return;
    }
    case 'context-overflow':
      anthropicError(
        response,
        400,
        'invalid_request_error',
        `prompt is too long: ${step.inputTokens ?? inputTotal} tokens > ${step.contextWindow ?? window} maximum`,
      );
      return;
    case 'error':
      sendJson(response, step.status, step.body, step.headers);
      return;
    default:
      break;
  }
  if (inputTotal > window) {
    anthropicError(
      response,
      400,
      'invalid_request_error',
      `prompt is too long: ${inputTotal} tokens > ${window} maximum`,
    );
    return;
  }
  if (context.config.enforceOutputCap && inputTotal + body.max_tokens > window) {
    anthropicError(
      response,
      400,
      'invalid_request_error',
      `max_tokens: ${body.max_tokens} > context_window: ${window} - input_tokens: ${inputTotal} = available_tokens: ${window - inputTotal}`,
    );
    return;
  }

  const cacheKey = `anthropic:${body.model}`;
  const cache = simulatePromptCache(segments, context.cacheStates.get(cacheKey) ?? {}, context.nowMs());
  context.cacheStates.set(cacheKey, cache.nextState);
  const reply = planMockReply(
    step?.kind === 'reply' ? step : undefined,
    lastUserText(body),
    body.max_tokens,
    () => context.nextId('toolu_mock_'),
  );
  const usage = {
    input_tokens: cache.uncachedInputTokens,
    cache_creation_input_tokens: cache.cacheWriteTokens,
    cache_read_input_tokens: cache.cacheReadTokens,
    output_tokens: reply.outputTokens,
  };
  const id = context.nextId('msg_mock_');
  const cut = step?.kind === 'stream-cut' ? step : undefined;
  if (step?.kind === 'stream-error') {
    if (body.stream !== true) return anthropicError(response, 529, 'overloaded_error', 'Overloaded');
    const frames = streamFrames(id, body.model, reply, usage);
    const kept = frames.slice(0, step.afterEvents ?? Math.floor(frames.length / 2));
    sendEventStream(
      response,
      [
        ...kept,
        anthropicFrame({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
      ],
      undefined,
    );
    return;
  }
  if (body.stream !== true) {
    if (cut) {
      dropConnection(response);
      return;
    }
    sendJson(response, 200, {
      id,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: contentBlocks(reply),
      stop_reason: stopReason(reply),
      stop_sequence: null,
      usage,
    });
    return;
  }
  sendEventStream(response, streamFrames(id, body.model, reply, usage), cut, context.hanging);
}

function stopReason(reply: MockReply): string {
  return reply.stopReason === 'tool' ? 'tool_use' : reply.stopReason === 'length' ? 'max_tokens' : 'end_turn';
}

function contentBlocks(reply: MockReply): Json[] {
  return [
    ...(reply.text !== '' ? [{ type: 'text', text: reply.text }] : []),
    ...reply.toolCalls.map((call) => ({
      type: 'tool_use',
      id: call.id,
      name: call.name,
      input: JSON.parse(call.argumentsJson) as unknown,
    })),
  ];
}

/** The real event sequence: message_start, ping, content blocks with deltas, message_delta, message_stop. */
function streamFrames(id: string, model: string, reply: MockReply, usage: Record<string, number>): string[] {
  const frames = [
    anthropicFrame({
      type: 'message_start',
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    }),
  ];
  let index = 0;
  if (reply.text !== '') {
    frames.push(
      anthropicFrame({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }),
    );
    frames.push(anthropicFrame({ type: 'ping' }));
    for (const piece of streamPieces(reply.text)) {
      frames.push(
        anthropicFrame({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }),
      );
    }
    frames.push(anthropicFrame({ type: 'content_block_stop', index }));
    index += 1;
  } else {
    frames.push(anthropicFrame({ type: 'ping' }));
  }
  for (const call of reply.toolCalls) {
    frames.push(
      anthropicFrame({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
      }),
    );
    for (const piece of jsonPieces(call.argumentsJson)) {
      frames.push(
        anthropicFrame({
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: piece },
        }),
      );
    }
    frames.push(anthropicFrame({ type: 'content_block_stop', index }));
    index += 1;
  }
  frames.push(
    anthropicFrame({
      type: 'message_delta',
      delta: { stop_reason: stopReason(reply), stop_sequence: null },
      usage: { output_tokens: reply.outputTokens },
    }),
  );
  frames.push(anthropicFrame({ type: 'message_stop' }));
  return frames;
}
