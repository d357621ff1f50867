import { describe, expect, it } from 'vitest';
import { mapAnthropicStopReason } from '#core/providers/anthropic/map-anthropic-stop-reason.ts';

describe('mapAnthropicStopReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['tool_use', 'tool-calls'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['refusal', 'content-filter'],
    ['something_new', 'other'],
    [null, 'other'],
  ] as const)('maps %s to %s', (raw, expected) => {
    expect(mapAnthropicStopReason(raw)).toBe(expected);
  });
});
