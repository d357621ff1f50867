import { describe, expect, it } from 'vitest';
import { importTranscript, importTranscriptChunks } from '#core/import/import-transcript.ts';

describe('importTranscript', () => {
  it('reads a transcript of any supported format without being told which', () => {
    const result = importTranscript('{"messages":[{"role":"user","content":"hi"}]}');
    expect(result.ok && result.value.format).toBe('openai-chat');
    expect(result.ok && result.value.transcript.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('names the format, the JSON path and the expectation when a forced format does not fit', () => {
    const result = importTranscript('{"conversations":[]}', { format: 'anthropic-messages' });
    expect(!result.ok && result.error).toEqual({
      type: 'ImportError',
      format: 'anthropic-messages',
      path: '$.messages',
      expected: 'a Messages request with "messages" (content blocks) or a response with "type":"message"',
      message:
        'Anthropic Messages JSON: $.messages is missing (expected a Messages request with "messages" (content blocks) or a response with "type":"message")',
    });
  });

  it('names the line of a syntax error in a JSON document', () => {
    const result = importTranscript('{\n  "messages": [\n    {"role": "user",, "content": "x"}\n  ]\n}', {
      format: 'openai-chat',
    });
    expect(!result.ok && result.error.message).toBe(
      'OpenAI Chat JSON: line 3 is not valid JSON at column 21 (expected one JSON document)',
    );
  });

  it('puts the system prompt first and in the metadata', () => {
    const result = importTranscript('{"system":"Be brief.","messages":[{"role":"user","content":"hi"}]}');
    expect(result.ok && result.value.transcript.messages[0]).toEqual({
      role: 'system',
      content: 'Be brief.',
    });
    expect(result.ok && result.value.transcript.metadata.systemPrompt).toBe('Be brief.');
  });

  it('drops a byte order mark', () => {
    const result = importTranscript('\ufeff[{"role":"user","content":"hi"}]');
    expect(result.ok && result.value.stats.messages).toBe(1);
  });

  it('reads chunks the same as whole text', () => {
    const text =
      '{"conversations":[{"from":"human","value":"hi"},{"from":"gpt","value":"hello"}]}\n{"conversations":[]}\n';
    expect(importTranscriptChunks([text.slice(0, 10), text.slice(10)])).toEqual(importTranscript(text));
  });
});
