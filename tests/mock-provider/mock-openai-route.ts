import type { IncomingMessage, ServerResponse } from 'node:http';
import { cacheSegmentsFromMessages } from '#core/caching/cache-segments-from-messages.ts';
import { simulatePromptCache, type CacheSegment } from '#core/caching/simulate-prompt-cache.ts';
import type { Message } from '#core/transcript/message.ts';
import type { MockContext } from './mock-context.ts';
import { dataFrame, dropConnection, sendEventStream, sendJson } from './mock-http.ts';
import { jsonPieces, planMockReply, streamPieces, type MockReply } from './mock-reply.ts';
import { markerFreeJson, mockMessageTokens, mockTokenCount } from './mock-token-count.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** OpenAI has no output cap check of this kind by default; the window is the whole budget. */
const DEFAULT_MAX_TOKENS = 4096;

function openAiError(
  response: ServerResponse,
  status: number,
  error: { message: string; type: string; code?: string | null; param?: string | null },
  headers: Record<string, string> = {},
): void {
  sendJson(
    response,
    status,
    { error: { param: null, code: null, ...error } },
    { 'x-request-id': 'req_mock', ...headers },
  );
}

/**
 * One segment for the tool schemas, then one per message (markers from OpenRouter's envelope
 * layout make breakpoints; without markers nothing is cached: the automatic caching of
 * OpenAI's own API is not modelled).
 */
export function openAiSegments(body: Json): CacheSegment[] {
  const segments: CacheSegment[] = [];
  if (Array.isArray(body.tools) && body.tools.length > 0) {
    const text = markerFreeJson(body.tools);
    segments.push({ text, tokens: mockTokenCount(text), breakpoint: false });
  }
  const messages = (Array.isArray(body.messages) ? body.messages : []).filter(isObject) as Message[];
  segments.push(...cacheSegmentsFromMessages(messages, mockMessageTokens));
  return segments;
}

function lastUserText(body: Json): string {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message: unknown = messages[index];
    if (!isObject(message)) continue;
    if (message.role === 'tool') return 'a tool result';
    if (message.role !== 'user') continue;
    if (typeof message.content === 'string') return message.content;
    if (Array.isArray(message.content)) {
      return message.content
        .filter((part): part is Json => isObject(part) && typeof part.text === 'string')
        .map((part) => String(part.text))
        .join('\n');
    }
  }
  return '';
}

export function handleOpenAiChatCompletions(
  _request: IncomingMessage,
  response: ServerResponse,
  body: unknown,
  context: MockContext,
): void {
  if (!isObject(body) || typeof body.model !== 'string' || !Array.isArray(body.messages)) {
    openAiError(response, 400, {
      message: "Missing required parameter: 'messages'.",
      type: 'invalid_request_error',
      param: 'messages',
    });
    return;
  }
  const step = context.nextStep();
  const segments = openAiSegments(body);
  const promptTokens = segments.reduce((sum, segment) => sum + segment.tokens, 0);
  const window = context.config.contextWindow;
  const maxTokens =
    typeof body.max_completion_tokens === 'number'
      ? body.max_completion_tokens
      : typeof body.max_tokens === 'number'
        ? body.max_tokens
        : DEFAULT_MAX_TOKENS;
  switch (step?.kind) {
    case 'rate-limit': {
      const seconds = step.retryAfterSeconds ?? 1;
      openAiError(
        response,
        429,
        {
          message: `Rate limit reached for requests. Please try again in ${seconds}s.`,
          type: 'requests',
          code: 'rate_limit_exceeded',
        },
        { 'retry-after': String(seconds) },
      );
      return;
    }
    case 'server-error':
      openAiError(response, step.status ?? 500, {
        message: 'The server had an error while processing your request. Sorry about that!',
        type: 'server_error',
      });
      return;
    case 'overloaded':
      openAiError(response, 503, {
        message: 'The engine is currently overloaded, please try again later.',
        type: 'server_error',
      });
      return;
    case 'timeout':
      context.hanging.add(response);
      response.on('close', () => context.hanging.delete(response));
      return;
    case 'output-cap': {
      const contextWindow = step.contextWindow ?? window;
      const inputTokens = step.inputTokens ?? promptTokens;
      openAiError(response, 400, {
        message: `max_tokens: ${step.maxTokens ?? maxTokens} > context_window: ${contextWindow} - input_tokens: ${inputTokens} = available_tokens: ${contextWindow - inputTokens}`,
        type: 'invalid_request_error',
        param: 'max_tokens',
      });
      return;
    }
    case 'context-overflow':
      sendOverflow(response, step.contextWindow ?? window, step.inputTokens ?? promptTokens);
      return;
    case 'error':
      sendJson(response, step.status, step.body, step.headers);
      return;
    default:
      break;
  }
  if (promptTokens > window) {
    sendOverflow(response, window, promptTokens);
    return;
  }

  const cacheKey = `openai:${body.model}`;
  const cache = simulatePromptCache(segments, context.cacheStates.get(cacheKey) ?? {}, context.nowMs());
  context.cacheStates.set(cacheKey, cache.nextState);
  const reply = planMockReply(step?.kind === 'reply' ? step : undefined, lastUserText(body), maxTokens, () =>
    context.nextId('call_mock_'),
  );
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: reply.outputTokens,
    total_tokens: promptTokens + reply.outputTokens,
    ...(context.config.openAiCacheUsage === 'anthropic-fields'
      ? {
          cache_read_input_tokens: cache.cacheReadTokens,
          cache_creation_input_tokens: cache.cacheWriteTokens,
        }
      : {
          prompt_tokens_details: {
            cached_tokens: cache.cacheReadTokens,
            cache_write_tokens: cache.cacheWriteTokens,
          },
        }),
  };
  const id = context.nextId('chatcmpl-mock-');
  const created = Math.floor(context.nowMs() / 1000);
  const cut = step?.kind === 'stream-cut' ? step : undefined;
  if (step?.kind === 'stream-error') {
    const overloaded = {
      message: 'The engine is currently overloaded, please try again later.',
      type: 'server_error',
    };
    if (body.stream !== true) return openAiError(response, 503, overloaded);
    const frames = streamFrames(id, created, body.model, reply, null);
    const kept = frames.slice(0, step.afterEvents ?? Math.floor(frames.length / 2));
    sendEventStream(
      response,
      [...kept, dataFrame({ error: { ...overloaded, code: 'server_error' } })],
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
      object: 'chat.completion',
      created,
      model: body.model,
      choices: [
        { index: 0, message: replyMessage(reply), finish_reason: finishReason(reply), logprobs: null },
      ],
      usage,
    });
    return;
  }
  const includeUsage = isObject(body.stream_options) && body.stream_options.include_usage === true;
  sendEventStream(
    response,
    streamFrames(id, created, body.model, reply, includeUsage ? usage : null),
    cut,
    context.hanging,
  );
}

function sendOverflow(response: ServerResponse, window: number, tokens: number): void {
  openAiError(response, 400, {
    message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
    type: 'invalid_request_error',
    param: 'messages',
    code: 'context_length_exceeded',
  });
}

function finishReason(reply: MockReply): string {
  return reply.stopReason === 'tool' ? 'tool_calls' : reply.stopReason === 'length' ? 'length' : 'stop';
}

function replyMessage(reply: MockReply): Json {
  return {
    role: 'assistant',
    content: reply.text === '' && reply.toolCalls.length > 0 ? null : reply.text,
    ...(reply.toolCalls.length > 0
      ? {
          tool_calls: reply.toolCalls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.argumentsJson },
          })),
        }
      : {}),
    refusal: null,
  };
}

function streamFrames(
  id: string,
  created: number,
  model: string,
  reply: MockReply,
  usage: Json | null,
): string[] {
  const chunk = (choices: Json[], extra: Json = {}): string =>
    dataFrame({ id, object: 'chat.completion.chunk', created, model, choices, ...extra });
  const frames = [chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }])];
  for (const piece of streamPieces(reply.text))
    frames.push(chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]));
  reply.toolCalls.forEach((call, callIndex) => {
    frames.push(
      chunk([
        {
          index: 0,
          delta: {
            tool_calls: [
              {
                index: callIndex,
                id: call.id,
                type: 'function',
                function: { name: call.name, arguments: '' },
              },
            ],
          },
          finish_reason: null,
        },
      ]),
    );
    for (const piece of jsonPieces(call.argumentsJson)) {
      frames.push(
        chunk([
          {
            index: 0,
            delta: { tool_calls: [{ index: callIndex, function: { arguments: piece } }] },
            finish_reason: null,
          },
        ]),
      );
    }
  });
  frames.push(chunk([{ index: 0, delta: {}, finish_reason: finishReason(reply) }]));
  if (usage) frames.push(chunk([], { usage }));
  frames.push(dataFrame('[DONE]'));
  return frames;
}
