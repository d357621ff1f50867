import { describe, expect, it } from 'vitest';
import { importTranscript } from '#core/import/import-transcript.ts';

const parseShareGptTranscript = (text: string) => importTranscript(text, { format: 'sharegpt' });

const record = (...turns: [string, string][]) =>
  JSON.stringify({ conversations: turns.map(([from, value]) => ({ from, value })) });
const call = (name: string) => `<tool_call>\n{"name": "${name}", "arguments": {}}\n</tool_call>`;
const response = (name: string, content: string) =>
  `<tool_response>\n{"name": "${name}", "content": "${content}"}\n</tool_response>`;

describe('parseShareGptTranscript', () => {
  it('answers calls by tool name first, then by position', () => {
    const result = parseShareGptTranscript(
      record(
        ['human', 'q'],
        ['gpt', `${call('read')}\n${call('list')}`],
        ['tool', `${response('list', 'L')}\n${response('read', 'R')}`],
      ),
    );
    const messages = result.ok ? result.value.transcript.messages : [];
    expect(messages.slice(2).map((message) => [message.tool_call_id, message.content])).toEqual([
      ['call_1_1', 'L'],
      ['call_1_0', 'R'],
    ]);
  });

  it('gives calls ids from their line, stable across imports', () => {
    const text = `${record(['human', 'a'])}\n${record(['human', 'b'], ['gpt', call('x')])}`;
    const result = parseShareGptTranscript(text);
    expect(result.ok && result.value.transcript.messages[2]!.tool_calls![0]!.id).toBe('call_2_0');
  });

  it('takes <think> out of the text into reasoning', () => {
    const result = parseShareGptTranscript(
      record(['human', 'q'], ['gpt', '<think>\nweigh it\n</think>\nAnswer.']),
    );
    expect(result.ok && result.value.transcript.messages[1]).toEqual({
      role: 'assistant',
      content: 'Answer.',
      reasoning: 'weigh it',
    });
  });
});
