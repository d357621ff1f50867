import { describe, expect, it } from 'vitest';
import { sanitizeToolPairs } from '#core/compression/sanitize-tool-pairs.ts';
import type { Message } from '#core/transcript/message.ts';
import { assistant, toolCall, toolResult, user } from './message-builders.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

describe('sanitizeToolPairs', () => {
  it('reports removed orphan results', () => {
    const { messages, repairs } = sanitizeToolPairs(
      [user('a'), toolResult('gone', 'x'), assistant('ok')],
      HERMES_2026_07,
    );
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(repairs.removedResults).toEqual(['gone']);
  });

  it('strips orphan calls in 2026-07 and stubs them in 2026-04', () => {
    const input = [user('a'), assistant('', [toolCall('c1')]), user('b')];
    const current = sanitizeToolPairs(input, HERMES_2026_07);
    expect(current.messages[1]).toEqual({ role: 'assistant', content: '(tool call removed)' });
    expect(current.repairs.strippedCalls).toEqual(['c1']);
    const legacy = sanitizeToolPairs(input, HERMES_2026_04);
    expect(legacy.messages[2]).toMatchObject({ role: 'tool', tool_call_id: 'c1' });
    expect(legacy.repairs.stubbedCalls).toEqual(['c1']);
  });

  it('matches results by call_id before id in 2026-07', () => {
    const call = { ...toolCall('item_1'), call_id: 'call_1' };
    const input: Message[] = [user('a'), assistant('', [call]), toolResult('call_1', 'r')];
    expect(sanitizeToolPairs(input, HERMES_2026_07).messages).toHaveLength(3);
    expect(sanitizeToolPairs(input, HERMES_2026_04).repairs.removedResults).toEqual(['call_1']);
  });

  it('never mutates the input messages', () => {
    const input = [user('a'), assistant('', [toolCall('c1'), toolCall('c2')]), toolResult('c1', 'r')];
    const snapshot = structuredClone(input);
    sanitizeToolPairs(input, HERMES_2026_07);
    expect(input).toEqual(snapshot);
  });

  it('keeps a whitespace-free assistant text when stripping its last call', () => {
    const { messages } = sanitizeToolPairs(
      [user('a'), assistant('  ', [toolCall('c')]), user('b')],
      HERMES_2026_07,
    );
    expect(messages[1]!.content).toBe('(tool call removed)');
  });
});
