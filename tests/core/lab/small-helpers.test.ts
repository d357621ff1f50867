import { describe, expect, it } from 'vitest';
import { findMessages } from '#core/lab/find-message.ts';
import { maskApiKey } from '#core/lab/mask-api-key.ts';
import { parsePercentInput, percentFieldValue } from '#core/lab/parse-percent-input.ts';
import { groupMarkAt, toolCallGroupMarks } from '#core/lab/tool-call-groups.ts';
import type { Message } from '#core/transcript/message.ts';

describe('maskApiKey', () => {
  it('keeps the kind of key and its last four characters only', () => {
    expect(maskApiKey('sk-ant-api03-abcdefghijklmnop-9f2c')).toBe('sk-ant-…9f2c');
    expect(maskApiKey('sk-or-v1-0123456789abcdef0123')).toBe('sk-or-v1-…0123');
    expect(maskApiKey('sk-proj-aaaaaaaaaaaaaaaaaaaaaXYZW')).toBe('sk-proj-…XYZW');
    expect(maskApiKey('  local-server-token-1234  ')).toBe('…1234');
    expect(maskApiKey('short-key')).toBe('…ey');
    expect(maskApiKey('')).toBe('');
  });

  it('never reveals the middle of the key', () => {
    const key = 'sk-ant-SECRETSECRETSECRET-end1';
    expect(maskApiKey(key)).not.toContain('SECRET');
  });
});

describe('parsePercentInput', () => {
  const bounds = { min: 0.01, max: 1 };
  it('reads percentages and fractions', () => {
    expect(parsePercentInput('50', bounds)).toEqual({ ok: true, value: 0.5 });
    expect(parsePercentInput('0.5', bounds)).toEqual({ ok: true, value: 0.5 });
    expect(parsePercentInput(' 75 % ', bounds)).toEqual({ ok: true, value: 0.75 });
    expect(parsePercentInput('1', bounds)).toEqual({ ok: true, value: 1 });
    expect(parsePercentInput('0.5%', bounds)).toEqual({ ok: false, error: 'Enter a value from 1% to 100%.' });
  });

  it('rejects what is not a share', () => {
    expect(parsePercentInput('', bounds)).toEqual({ ok: false, error: 'Enter a percentage.' });
    expect(parsePercentInput('abc', bounds)).toEqual({ ok: false, error: '"abc" is not a number.' });
    expect(parsePercentInput('150', bounds)).toEqual({ ok: false, error: 'Enter a value from 1% to 100%.' });
  });

  it('shows fractions as percent field values', () => {
    expect(percentFieldValue(0.5)).toBe('50');
    expect(percentFieldValue(0.125)).toBe('12.5');
  });
});

const call = (id: string) => ({
  id,
  type: 'function' as const,
  function: { name: 'terminal', arguments: '{}' },
});

describe('toolCallGroupMarks', () => {
  it('brackets an assistant with its tool results', () => {
    const messages: Message[] = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
      { role: 'tool', tool_call_id: 'a', content: '1' },
      { role: 'tool', tool_call_id: 'b', content: '2' },
      { role: 'assistant', content: null, tool_calls: [call('c')] },
      { role: 'tool', tool_call_id: 'c', content: '3' },
      { role: 'assistant', content: null, tool_calls: [call('d')] },
      { role: 'user', content: 'no result for d' },
    ];
    const marks = toolCallGroupMarks(messages);
    expect(messages.map((_, index) => groupMarkAt(marks, index))).toEqual([
      'none',
      'start',
      'inside',
      'end',
      'start',
      'end',
      'none',
      'none',
    ]);
  });
});

describe('findMessages', () => {
  const messages: Message[] = [
    { role: 'user', content: 'Run PYTEST please' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'terminal', arguments: '{"command":"pytest -q"}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'c1', name: 'terminal', content: '3 passed' },
    { role: 'assistant', content: 'All green.' },
  ];

  it('lists every message that mentions the query, in order', () => {
    expect(findMessages(messages, 'pytest')).toEqual([0, 1]);
    expect(findMessages(messages, 'terminal')).toEqual([1, 2]);
  });

  it('finds nothing for an empty query', () => {
    expect(findMessages(messages, '  ')).toEqual([]);
  });
});
