import { describe, expect, it } from 'vitest';
import { adapter } from '#cli/conformance/adapters/trajectory_sharegpt.ts';
import type { Message } from '#core/transcript/message.ts';
import {
  formatTools,
  toShareGptJsonlLine,
  toShareGptTrajectory,
} from '#core/trajectory/to-sharegpt-trajectory.ts';
import { hermesVectorRuns, runAdapter } from '../shared/load-hermes-vectors.ts';

const turn = (messages: Message[]) =>
  toShareGptTrajectory([{ role: 'user', content: 'q' }, ...messages], 'q', true, {
    tools: null,
  }).conversations.slice(2);

describe('toShareGptTrajectory', () => {
  it.each(hermesVectorRuns('trajectory_sharegpt.json'))('matches the Hermes vector $name', (run) => {
    expect(runAdapter(adapter, run)).toEqual(run.expected);
  });

  it('uses {} for arguments that are not valid JSON', () => {
    const [gpt] = turn([
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{bad' } }],
      },
    ]);
    expect(gpt!.value).toBe('<think>\n</think>\n<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>');
  });

  it('keeps key order, floats and non-ASCII text as Python json.dumps would', () => {
    const [, tool] = turn([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c', content: '{"b": 1.0, "2": "é", "a": [1e20, 0.00001]}' },
    ]);
    expect(tool!.value).toBe(
      '<tool_response>\n{"tool_call_id": "c", "name": "f", "content": {"b": 1.0, "2": "é", "a": [1e+20, 1e-05]}}\n</tool_response>',
    );
  });

  it('names an extra tool result "unknown"', () => {
    const [, tool] = turn([
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c', content: 'one' },
      { role: 'tool', tool_call_id: 'd', content: 'two' },
    ]);
    expect(tool!.value).toContain('{"tool_call_id": "d", "name": "unknown", "content": "two"}');
  });

  it('replaces image parts in a user turn with [screenshot]', () => {
    const [human] = turn([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'data:x' } },
        ],
      },
    ]);
    expect(human!.value).toEqual([
      { type: 'text', text: 'look' },
      { type: 'text', text: '[screenshot]' },
    ]);
  });
});

describe('formatTools', () => {
  it('lists name, description, parameters and required: null', () => {
    expect(
      formatTools([{ type: 'function', function: { name: 'ls', parameters: { type: 'object' } } }]),
    ).toBe('[{"name": "ls", "description": "", "parameters": {"type": "object"}, "required": null}]');
    expect(formatTools(null)).toBe('[]');
  });
});

describe('toShareGptJsonlLine', () => {
  it('writes conversations, timestamp, model and completed in that order', () => {
    const trajectory = toShareGptTrajectory([{ role: 'user', content: 'hi' }], 'hi', false, {
      tools: null,
      model: 'm',
      timestampIso: '2026-04-24T10:00:00',
    });
    const line = toShareGptJsonlLine(trajectory);
    expect(
      line.startsWith('{"conversations": [{"from": "system", "value": "You are a function calling'),
    ).toBe(true);
    expect(
      line.endsWith(
        '{"from": "human", "value": "hi"}], "timestamp": "2026-04-24T10:00:00", "model": "m", "completed": false}',
      ),
    ).toBe(true);
  });
});
