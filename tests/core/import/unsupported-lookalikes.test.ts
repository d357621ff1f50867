import { describe, expect, it } from 'vitest';
import { importTranscript } from '#core/import/import-transcript.ts';

const jsonl = (...records: unknown[]): string => records.map((record) => JSON.stringify(record)).join('\n');

function errorOf(text: string): string {
  const result = importTranscript(text);
  return result.ok ? `imported as ${result.value.format}` : result.error.message;
}

describe('files from tools Context Lab cannot read yet', () => {
  it('names a Qwen Code session instead of misreading it as Claude Code', () => {
    // Qwen Code threads records like Claude Code but stores Gemini-style `parts`.
    const base = { sessionId: 'q-9', cwd: '/work/api', parentUuid: null };
    const text = jsonl(
      {
        ...base,
        uuid: '1',
        type: 'user',
        message: { role: 'user', parts: [{ text: 'add a health check' }] },
      },
      {
        ...base,
        uuid: '2',
        parentUuid: '1',
        type: 'assistant',
        message: { role: 'model', parts: [{ text: 'Adding it.' }] },
      },
    );
    expect(errorOf(text)).toMatch(
      /^Transcript import: the file looks like a Qwen Code session \(.*\); not supported yet/,
    );
  });

  it('names a Cline UI message log and says which file to import instead', () => {
    const text = JSON.stringify([
      { ts: 1736000000000, type: 'say', say: 'task', text: 'Fix the login form' },
      { ts: 1736000001000, type: 'say', say: 'api_req_started', text: '{}' },
    ]);
    expect(errorOf(text)).toContain(
      'looks like a Cline or Roo Code UI message log (ui_messages.json) (an array of {ts, type:"say"|"ask"} UI events); not supported yet: import api_conversation_history.json',
    );
  });

  it('names chat exports', () => {
    expect(errorOf(JSON.stringify([{ title: 'Plan', create_time: 1.7e9, mapping: { root: {} } }]))).toContain(
      'looks like a ChatGPT data export',
    );
    expect(errorOf(JSON.stringify([{ uuid: 'c1', name: 'Plan', chat_messages: [] }]))).toContain(
      'looks like a Claude.ai data export',
    );
  });

  it('does not refuse a supported file that merely shares a key', () => {
    const claude = jsonl(
      {
        type: 'user',
        uuid: 'u1',
        parentUuid: null,
        sessionId: 's',
        message: { role: 'user', content: 'hi' },
      },
      {
        type: 'assistant',
        uuid: 'a1',
        parentUuid: 'u1',
        sessionId: 's',
        message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'hello' }] },
      },
    );
    expect(errorOf(claude)).toBe('imported as claude-code');
  });
});
