import { describe, expect, it } from 'vitest';
import { splitJoinedJsonRecords } from '#core/import/split-joined-json-records.ts';
import { importTranscript } from '#core/import/import-transcript.ts';

describe('splitJoinedJsonRecords', () => {
  it('splits objects written back to back, with or without whitespace between them', () => {
    expect(splitJoinedJsonRecords('{"a":1}{"b":2}')).toEqual(['{"a":1}', '{"b":2}']);
    expect(splitJoinedJsonRecords('{"a":1} \t{"b":[{"c":3}]}{"d":{}}')).toEqual([
      '{"a":1}',
      '{"b":[{"c":3}]}',
      '{"d":{}}',
    ]);
  });

  it('is not fooled by braces and escaped quotes inside strings', () => {
    expect(splitJoinedJsonRecords('{"t":"}{ \\" }{"}{"u":"\\\\"}')).toEqual([
      '{"t":"}{ \\" }{"}',
      '{"u":"\\\\"}',
    ]);
  });

  it('leaves anything that is not two or more whole objects alone', () => {
    expect(splitJoinedJsonRecords('{"a":1}')).toBeUndefined();
    expect(splitJoinedJsonRecords('{"a":1}{"b":')).toBeUndefined();
    expect(splitJoinedJsonRecords('{"a":1} trailing')).toBeUndefined();
    expect(splitJoinedJsonRecords('[1]{"a":1}')).toBeUndefined();
    expect(splitJoinedJsonRecords('{"a":"unterminated}{"b":1}')).toBeUndefined();
  });
});

describe('a JSONL line holding two records', () => {
  const first = { type: 'session_meta', payload: { id: 's1', cwd: '/p' } };
  const user = {
    type: 'response_item',
    payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix it' }] },
  };
  const answer = {
    type: 'response_item',
    payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Fixed.' }] },
  };

  it('reads both records and names the line in a warning', () => {
    const text = `${JSON.stringify(first)}\n${JSON.stringify(user)}${JSON.stringify(answer)}\n`;
    const result = importTranscript(text);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.transcript.messages.map((message) => [message.role, message.content])).toEqual([
      ['user', 'fix it'],
      ['assistant', 'Fixed.'],
    ]);
    expect(result.value.stats.skippedLines).toBe(0);
    expect(result.value.warnings).toContainEqual({
      kind: 'repaired',
      line: 2,
      reason: 'holds 2 JSON records with no line break between them; read as 2 records',
    });
  });

  it('still skips a line that is broken, not joined', () => {
    const text = `${JSON.stringify(first)}\n${JSON.stringify(user)}{"type":"response_item","payload":\n${JSON.stringify(answer)}\n`;
    const result = importTranscript(text);
    expect(result.ok && result.value.stats.skippedLines).toBe(1);
    expect(result.ok && result.value.transcript.messages.map((message) => message.role)).toEqual([
      'assistant',
    ]);
  });
});
