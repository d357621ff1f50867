import { describe, expect, it } from 'vitest';
import { importTranscript } from '#core/import/import-transcript.ts';

const parseCodexRolloutTranscript = (text: string) => importTranscript(text, { format: 'codex-rollout' });

const jsonl = (...records: unknown[]): string => records.map((record) => JSON.stringify(record)).join('\n');
const item = (payload: unknown) => ({ timestamp: '2026-01-01T00:00:00Z', type: 'response_item', payload });
const event = (payload: unknown) => ({ timestamp: '2026-01-01T00:00:00Z', type: 'event_msg', payload });
const message = (role: string, text: string) =>
  item({
    type: 'message',
    role,
    content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }],
  });

describe('parseCodexRolloutTranscript', () => {
  it('drops event copies of response-item messages', () => {
    const result = parseCodexRolloutTranscript(
      jsonl(
        event({ type: 'user_message', message: 'hi' }),
        message('user', 'hi'),
        event({ type: 'agent_message', message: 'hello' }),
        message('assistant', 'hello'),
      ),
    );
    expect(result.ok && result.value.transcript.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]);
  });

  it('keeps an event message when the rollout has no response-item message of that role', () => {
    const result = parseCodexRolloutTranscript(
      jsonl(
        event({ type: 'user_message', message: 'run a review' }),
        item({ type: 'function_call', name: 'exec', arguments: '{}', call_id: 'c1' }),
        item({ type: 'function_call_output', call_id: 'c1', output: 'ok' }),
      ),
    );
    expect(result.ok && result.value.transcript.messages.map((entry) => entry.role)).toEqual([
      'user',
      'assistant',
      'tool',
    ]);
  });

  it('joins reasoning, text and parallel calls of one turn into one assistant message', () => {
    const result = parseCodexRolloutTranscript(
      jsonl(
        message('user', 'check'),
        item({
          type: 'reasoning',
          summary: [{ type: 'summary_text', text: 'look' }],
          encrypted_content: 'opaque',
        }),
        message('assistant', 'Checking.'),
        item({ type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'a' }),
        item({ type: 'local_shell_call', call_id: 'b', action: { type: 'exec', command: ['pwd'] } }),
        item({ type: 'function_call_output', call_id: 'b', output: '/repo' }),
        item({ type: 'function_call_output', call_id: 'a', output: 'src' }),
      ),
    );
    const messages = result.ok ? result.value.transcript.messages : [];
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: 'Checking.',
      reasoning: 'look',
      tool_calls: [
        { id: 'a', type: 'function', function: { name: 'shell', arguments: '{"command":["ls"]}' } },
        {
          id: 'b',
          type: 'function',
          function: { name: 'local_shell', arguments: '{"type":"exec","command":["pwd"]}' },
        },
      ],
    });
    expect(messages.slice(2).map((entry) => entry.tool_call_id)).toEqual(['b', 'a']);
  });

  it('records a compaction and inserts its summary as Codex does for a local compaction', () => {
    const result = parseCodexRolloutTranscript(
      jsonl(
        message('user', 'a'),
        { timestamp: 't', type: 'compacted', payload: { message: 'Summary of a.' } },
        message('user', 'b'),
      ),
    );
    expect(result.ok && result.value.transcript.metadata.compactionPoints).toEqual([
      { messageIndex: 1, kind: 'codex-compacted', line: 2, summary: 'Summary of a.' },
    ]);
    expect(result.ok && result.value.transcript.messages[1]).toEqual({
      role: 'user',
      content: 'Summary of a.',
    });
  });
});
