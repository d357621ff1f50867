import { describe, expect, it } from 'vitest';
import { sanitizeApiMessages } from '#core/compression/sanitize-api-messages.ts';
import type { Message } from '#core/transcript/message.ts';
import { assistant, toolCall, toolResult, user } from './message-builders.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

const STUB = '[Result unavailable — see context summary above]';

/** A call whose `function` object is replaced by `fn` (or removed when `fn` is undefined). */
const callWithFunction = (id: string, fn: unknown): Message['tool_calls'] =>
  [
    fn === undefined ? { id, type: 'function' } : { id, type: 'function', function: fn },
  ] as Message['tool_calls'];

describe('sanitizeApiMessages', () => {
  it('drops messages whose role the API does not accept', () => {
    const input: Message[] = [user('a'), { role: 'narrator', content: 'x' }, assistant('b')];
    for (const preset of [HERMES_2026_04, HERMES_2026_07]) {
      expect(sanitizeApiMessages(input, preset).map((m) => m.role)).toEqual(['user', 'assistant']);
    }
  });

  it('returns an empty list for an empty list', () => {
    expect(sanitizeApiMessages([], HERMES_2026_07)).toEqual([]);
    expect(sanitizeApiMessages([], HERMES_2026_04)).toEqual([]);
  });

  it('2026-07 removes an empty or null tool_calls; 2026-04 sends it as it is', () => {
    const empty: Message = { role: 'assistant', content: 'b', tool_calls: [] };
    const none = { role: 'assistant', content: 'c', tool_calls: null } as unknown as Message;
    expect(sanitizeApiMessages([user('a'), empty, none], HERMES_2026_07).slice(1)).toEqual([
      { role: 'assistant', content: 'b' },
      { role: 'assistant', content: 'c' },
    ]);
    expect(sanitizeApiMessages([user('a'), empty, none], HERMES_2026_04).slice(1)).toEqual([empty, none]);
  });

  describe('a tool call whose function.name is blank', () => {
    const blankNames: ReadonlyArray<readonly [string, unknown]> = [
      ['empty', ''],
      ['whitespace', '  \t'],
      ['null', null],
      ['a number', 7],
    ];

    it.each(blankNames)(
      '2026-07 renames a %s name to invalid_tool_call and keeps the arguments',
      (_kind, name) => {
        const calls = callWithFunction('c1', { name, arguments: '{"command": "ls"}' });
        const input: Message[] = [user('go'), assistant('', calls), toolResult('c1', 'out')];
        expect(sanitizeApiMessages(input, HERMES_2026_07)[1]).toEqual({
          role: 'assistant',
          content: '',
          tool_calls: [
            {
              id: 'c1',
              type: 'function',
              function: { name: 'invalid_tool_call', arguments: '{"command": "ls"}' },
            },
          ],
        });
      },
    );

    it.each(blankNames)('2026-04 sends a %s name unchanged', (_kind, name) => {
      const calls = callWithFunction('c1', { name, arguments: '{}' });
      const input: Message[] = [user('go'), assistant('', calls), toolResult('c1', 'out')];
      expect(sanitizeApiMessages(input, HERMES_2026_04)).toEqual(input);
    });

    it('2026-07 renames a function object that has no name key', () => {
      const input: Message[] = [
        user('go'),
        assistant('', callWithFunction('c1', { arguments: '{}' })),
        toolResult('c1', 'x'),
      ];
      expect(sanitizeApiMessages(input, HERMES_2026_07)[1]!.tool_calls).toEqual([
        { id: 'c1', type: 'function', function: { arguments: '{}', name: 'invalid_tool_call' } },
      ]);
    });

    it.each([
      ['missing', undefined],
      ['a string', 'terminal'],
      ['null', null],
    ])('2026-07 gives a call whose function is %s a whole function with empty arguments', (_kind, fn) => {
      const input: Message[] = [user('go'), assistant('', callWithFunction('c1', fn)), toolResult('c1', 'x')];
      expect(sanitizeApiMessages(input, HERMES_2026_07)[1]!.tool_calls).toEqual([
        { id: 'c1', type: 'function', function: { name: 'invalid_tool_call', arguments: '{}' } },
      ]);
    });

    it('2026-07 stubs the missing result of a renamed call with the sentinel name; 2026-04 stubs it without a name', () => {
      const calls = callWithFunction('c1', { name: '', arguments: '{}' });
      const input: Message[] = [user('go'), assistant('', calls), user('next')];
      expect(sanitizeApiMessages(input, HERMES_2026_07)[2]).toEqual({
        role: 'tool',
        name: 'invalid_tool_call',
        content: STUB,
        tool_call_id: 'c1',
      });
      expect(sanitizeApiMessages(input, HERMES_2026_04)[2]).toEqual({
        role: 'tool',
        content: STUB,
        tool_call_id: 'c1',
      });
    });

    it('renames only the blank call among several, and never touches the caller’s messages', () => {
      const calls = [toolCall('c1', 'read_file'), ...callWithFunction('c2', { name: ' ', arguments: '{}' })!];
      const input: Message[] = [
        user('go'),
        assistant(null, calls),
        toolResult('c1', 'a'),
        toolResult('c2', 'b'),
      ];
      const before = structuredClone(input);
      const result = sanitizeApiMessages(input, HERMES_2026_07);
      expect(result[1]!.tool_calls!.map((call) => call.function.name)).toEqual([
        'read_file',
        'invalid_tool_call',
      ]);
      expect(result[1]!.tool_calls![0]).toBe(input[1]!.tool_calls![0]);
      expect(input).toEqual(before);
    });
  });

  it('keeps a message that needs no repair as the same object', () => {
    const input: Message[] = [user('a'), assistant('', [toolCall('c1')]), toolResult('c1', 'x')];
    const result = sanitizeApiMessages(input, HERMES_2026_07);
    result.forEach((message, index) => expect(message).toBe(input[index]));
  });

  it('drops orphan results but keeps a result without an id', () => {
    const input: Message[] = [user('a'), toolResult('gone', 'x'), { role: 'tool', content: 'no id' }];
    for (const preset of [HERMES_2026_04, HERMES_2026_07]) {
      expect(sanitizeApiMessages(input, preset)).toEqual([user('a'), { role: 'tool', content: 'no id' }]);
    }
  });

  it('matches ids as Python set members: the number 5 and the string "5" differ', () => {
    const call = { id: 5, type: 'function', function: { name: 'terminal', arguments: '{}' } };
    const input = [
      user('a'),
      { role: 'assistant', content: '', tool_calls: [call] },
      { role: 'tool', tool_call_id: '5', content: 'string id' },
    ] as unknown as Message[];
    expect(sanitizeApiMessages(input, HERMES_2026_04)).toEqual([
      input[0],
      input[1],
      { role: 'tool', content: STUB, tool_call_id: 5 },
    ]);
  });

  it('stubs a call repeated in two assistant turns after each of them', () => {
    const input: Message[] = [
      user('a'),
      assistant('', [toolCall('c1')]),
      user('b'),
      assistant('', [toolCall('c1')]),
    ];
    const stubs = sanitizeApiMessages(input, HERMES_2026_07).filter((message) => message.role === 'tool');
    expect(stubs).toHaveLength(2);
  });
});
