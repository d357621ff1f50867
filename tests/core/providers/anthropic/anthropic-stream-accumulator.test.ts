import { describe, expect, it } from 'vitest';
import {
  accumulateAnthropicStreamEvents,
  anthropicStreamMessage,
  applyAnthropicStreamEvent,
  createAnthropicStreamState,
} from '#core/providers/anthropic/anthropic-stream-accumulator.ts';

const events = [
  {
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 20, cache_read_input_tokens: 1500, output_tokens: 1 },
    },
  },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'ping' },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello ' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'there' } },
  { type: 'content_block_stop', index: 0 },
  {
    type: 'content_block_start',
    index: 1,
    content_block: { type: 'tool_use', id: 'toolu_1', name: 'read', input: {} },
  },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"path":' } },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: ' "a.ts"}' } },
  { type: 'content_block_stop', index: 1 },
  {
    type: 'message_delta',
    delta: { stop_reason: 'tool_use', stop_sequence: null },
    usage: { output_tokens: 42 },
  },
  { type: 'message_stop' },
];

describe('applyAnthropicStreamEvent', () => {
  it('returns text deltas and tool-call deltas keyed by the call position', () => {
    const state = createAnthropicStreamState();
    const deltas = events
      .map((event) => applyAnthropicStreamEvent(state, event))
      .filter((delta) => delta !== null);
    expect(deltas).toEqual([
      { type: 'text-delta', text: 'Hello ' },
      { type: 'text-delta', text: 'there' },
      { type: 'tool-call-delta', index: 0, id: 'toolu_1', name: 'read', argumentsDelta: '' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"path":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: ' "a.ts"}' },
    ]);
  });

  it('records an error event mid-stream', () => {
    const state = createAnthropicStreamState();
    applyAnthropicStreamEvent(state, {
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
    expect(state.error).toEqual({ type: 'overloaded_error', message: 'Overloaded' });
  });
});

describe('accumulateAnthropicStreamEvents', () => {
  it('rebuilds the message with parsed tool input and the final usage', () => {
    const state = accumulateAnthropicStreamEvents(events);
    expect(state.complete).toBe(true);
    expect(anthropicStreamMessage(state)).toMatchObject({
      id: 'msg_1',
      model: 'claude-test',
      content: [
        { type: 'text', text: 'Hello there' },
        { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.ts' } },
      ],
      stop_reason: 'tool_use',
      usage: { input_tokens: 20, cache_read_input_tokens: 1500, output_tokens: 42 },
    });
  });

  it('is incomplete without message_stop and keeps unparseable tool input as {} with a warning', () => {
    const state = accumulateAnthropicStreamEvents(events.slice(0, 8));
    expect(state.complete).toBe(false);
    const message = anthropicStreamMessage(state);
    expect((message.content as unknown[])[1]).toMatchObject({ type: 'tool_use', input: {} });
    expect(state.warnings).toEqual([expect.objectContaining({ feature: 'tool_use.input' })]);
  });
});
