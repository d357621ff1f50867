import { describe, expect, it } from 'vitest';
import { createServerSentEventParser } from '#core/providers/server-sent-event-parser.ts';

describe('createServerSentEventParser', () => {
  it('parses named events and plain data events', () => {
    const parser = createServerSentEventParser();
    expect(parser.push('event: ping\ndata: {"type":"ping"}\n\ndata: {"a":1}\n\n')).toEqual([
      { event: 'ping', data: '{"type":"ping"}' },
      { data: '{"a":1}' },
    ]);
  });

  it('reassembles events split across chunks anywhere, including inside a CRLF', () => {
    const parser = createServerSentEventParser();
    const text = 'data: {"x":"hello"}\r\n\r\ndata: [DONE]\r\n\r\n';
    const events = [...text].flatMap((character) => parser.push(character));
    expect(events).toEqual([{ data: '{"x":"hello"}' }, { data: '[DONE]' }]);
  });

  it('joins multi-line data with newlines and skips comments', () => {
    const parser = createServerSentEventParser();
    expect(parser.push(': keep-alive\ndata: one\ndata: two\n\n')).toEqual([{ data: 'one\ntwo' }]);
  });

  it('hands out an unterminated last event at the end', () => {
    const parser = createServerSentEventParser();
    expect(parser.push('data: [DONE]')).toEqual([]);
    expect(parser.end()).toEqual([{ data: '[DONE]' }]);
  });
});
