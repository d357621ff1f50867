import { describe, expect, it } from 'vitest';
import { detectTranscriptFormat } from '#core/import/detect-transcript-format.ts';

const lines = (...records: unknown[]): string => records.map((record) => JSON.stringify(record)).join('\n');

describe('detectTranscriptFormat', () => {
  it('recognises Claude Code records by their threaded user/assistant shape', () => {
    const text = lines(
      {
        type: 'user',
        uuid: 'u1',
        parentUuid: null,
        sessionId: 's',
        message: { role: 'user', content: 'hi' },
      },
      { type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { role: 'assistant', content: [] } },
    );
    expect(detectTranscriptFormat(text)).toMatchObject({ format: 'claude-code', confidence: 0.95 });
  });

  it('recognises a Claude Code file that starts with bookkeeping records', () => {
    const text = lines(
      { type: 'file-history-snapshot', messageId: 'm', snapshot: {} },
      { type: 'summary', summary: 'Title', leafUuid: 'u9' },
    );
    expect(detectTranscriptFormat(text)?.format).toBe('claude-code');
  });

  it('recognises Codex rollouts, enveloped and legacy', () => {
    expect(
      detectTranscriptFormat(
        lines(
          { timestamp: 't', type: 'session_meta', payload: { id: 'x' } },
          { type: 'event_msg', payload: {} },
        ),
      )?.format,
    ).toBe('codex-rollout');
    const legacy = lines(
      { id: 'x', timestamp: '2025-01-01T00:00:00Z' },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
    );
    expect(detectTranscriptFormat(legacy)).toMatchObject({ format: 'codex-rollout', confidence: 0.7 });
  });

  it('recognises ShareGPT and Hermes session exports', () => {
    expect(detectTranscriptFormat(lines({ conversations: [] }, { conversations: [] }))?.format).toBe(
      'sharegpt',
    );
    expect(
      detectTranscriptFormat(
        lines({ id: 's1', source: 'cli', messages: [] }, { id: 's2', source: 'cli', messages: [] }),
      )?.format,
    ).toBe('hermes-session-jsonl');
  });

  it('recognises JSON documents: OpenAI, Anthropic, Hermes snapshot, internal', () => {
    expect(detectTranscriptFormat('[{"role":"user","content":"hi"}]')?.format).toBe('openai-chat');
    expect(
      detectTranscriptFormat('{"choices":[{"message":{"role":"assistant","content":"x"}}]}')?.format,
    ).toBe('openai-chat');
    expect(detectTranscriptFormat('{\n  "system": "s",\n  "messages": []\n}')?.format).toBe(
      'anthropic-messages',
    );
    expect(detectTranscriptFormat('{"type":"message","role":"assistant","content":[]}')?.format).toBe(
      'anthropic-messages',
    );
    expect(
      detectTranscriptFormat(
        '{"method":"POST","body":{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t"}]}]}}',
      ),
    ).toMatchObject({
      format: 'anthropic-messages',
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers as any
      reason: expect.stringContaining('captured request'),
    });
    expect(detectTranscriptFormat('{"session_id":"s","messages":[]}')?.format).toBe('hermes-snapshot');
    expect(
      detectTranscriptFormat('{"format":"context-lab-transcript","version":1,"messages":[]}')?.format,
    ).toBe('internal');
  });

  it('still recognises a JSONL file whose first line is broken', () => {
    const text = `{"type":"user",\n${lines({ type: 'user', uuid: 'u', message: { role: 'user', content: 'a' } }, { type: 'assistant', uuid: 'v', message: { role: 'assistant', content: 'b' } })}`;
    expect(detectTranscriptFormat(text)).toMatchObject({
      format: 'claude-code',
      // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- vitest types its asymmetric matchers as any
      reason: expect.stringContaining('not JSON'),
    });
  });

  it('returns null for text that is not a transcript', () => {
    expect(detectTranscriptFormat('')).toBeNull();
    expect(detectTranscriptFormat('hello world\nthis is prose')).toBeNull();
    expect(detectTranscriptFormat('{"weather":"sunny"}')).toBeNull();
  });
});
