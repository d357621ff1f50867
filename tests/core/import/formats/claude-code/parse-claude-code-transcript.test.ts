import { describe, expect, it } from 'vitest';
import { importTranscript } from '#core/import/import-transcript.ts';

const parseClaudeCodeTranscript = (text: string) => importTranscript(text, { format: 'claude-code' });

const jsonl = (...records: unknown[]): string => records.map((record) => JSON.stringify(record)).join('\n');
const assistant = (uuid: string, parentUuid: string, id: string, content: unknown[], extra = {}) => ({
  type: 'assistant',
  uuid,
  parentUuid,
  message: { id, role: 'assistant', content },
  ...extra,
});
const user = (uuid: string, parentUuid: string | null, content: unknown, extra = {}) => ({
  type: 'user',
  uuid,
  parentUuid,
  message: { role: 'user', content },
  ...extra,
});

describe('parseClaudeCodeTranscript', () => {
  it('merges records of one message id even when tool results arrive between them', () => {
    const result = parseClaudeCodeTranscript(
      jsonl(
        user('u1', null, 'go'),
        assistant('a1', 'u1', 'msg_1', [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }]),
        user('r1', 'a1', [{ type: 'tool_result', tool_use_id: 't1', content: 'one' }]),
        assistant('a2', 'r1', 'msg_1', [{ type: 'tool_use', id: 't2', name: 'Read', input: {} }]),
        user('r2', 'a2', [{ type: 'tool_result', tool_use_id: 't2', content: 'two' }]),
      ),
    );
    expect(result.ok && result.value.transcript.messages).toEqual([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 't1', type: 'function', function: { name: 'Read', arguments: '{}' } },
          { id: 't2', type: 'function', function: { name: 'Read', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 't1', content: 'one' },
      { role: 'tool', tool_call_id: 't2', content: 'two' },
    ]);
  });

  it('imports a sub-agent file, all sidechain records, without skipping them', () => {
    const result = parseClaudeCodeTranscript(
      jsonl(
        user('s1', null, 'Warmup', { isSidechain: true }),
        assistant('s2', 's1', 'm', [{ type: 'text', text: 'Ready' }], { isSidechain: true }),
      ),
    );
    expect(result.ok && result.value.transcript.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
    ]);
    expect(result.ok && result.value.warnings).toEqual([]);
  });

  it('keeps thinking as reasoning and leaves its signature out', () => {
    const result = parseClaudeCodeTranscript(
      jsonl(
        user('u1', null, 'q'),
        assistant('a1', 'u1', 'm', [
          { type: 'thinking', thinking: 'hmm', signature: 'SECRET' },
          { type: 'text', text: 'a' },
        ]),
      ),
    );
    expect(result.ok && result.value.transcript.messages[1]).toEqual({
      role: 'assistant',
      content: 'a',
      reasoning: 'hmm',
    });
  });

  it('skips isMeta records but keeps command wrapper text as the user typed it', () => {
    const result = parseClaudeCodeTranscript(
      jsonl(
        user('m', null, 'Caveat: local commands…', { isMeta: true }),
        user('c', 'm', '<command-name>/clear</command-name>'),
      ),
    );
    expect(result.ok && result.value.transcript.messages).toEqual([
      { role: 'user', content: '<command-name>/clear</command-name>' },
    ]);
  });
});
