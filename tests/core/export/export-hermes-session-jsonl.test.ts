import { describe, expect, it } from 'vitest';
import { exportHermesSessionJsonl } from '#core/export/export-hermes-session-jsonl.ts';
import { importTranscript } from '#core/import/import-transcript.ts';
import type { Message } from '#core/transcript/message.ts';

const parseHermesSessionTranscript = (text: string) =>
  importTranscript(text, { format: 'hermes-session-jsonl' });

const SUMMARY =
  '[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted into the summary below.\n\n## Active Task\nAdd tests.';

const rootMessages: Message[] = [
  { role: 'system', content: 'You are Hermes.' },
  { role: 'user', content: 'Build the API.' },
  {
    role: 'assistant',
    content: '',
    tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'terminal', arguments: '{"command":"ls"}' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call_1', content: 'main.py', tool_name: 'terminal' },
  { role: 'assistant', content: 'Scaffolded.', reasoning: 'Check files first.', _flushed: true },
];
const childMessages: Message[] = [
  { role: 'system', content: 'You are Hermes.' },
  { role: 'user', content: SUMMARY },
  { role: 'user', content: 'Now the tests 🧪' },
  { role: 'assistant', content: 'Added tests.' },
];

const sessions = [
  {
    session: {
      id: 's1',
      parent_session_id: null,
      title: 'API',
      started_at: 1757600000,
      ended_at: 1757603600,
      end_reason: 'compression',
      model: 'gpt-5.2',
      source: 'cli',
    },
    messages: rootMessages,
  },
  {
    session: {
      id: 's2',
      parent_session_id: 's1',
      title: 'API #2',
      started_at: 1757603601,
      ended_at: null,
      end_reason: null,
      model: 'gpt-5.2',
      source: 'cli',
    },
    messages: childMessages,
  },
];

describe('exportHermesSessionJsonl', () => {
  it('writes one session row per line with lineage, the system prompt in the row and numbered message rows', () => {
    const lines = exportHermesSessionJsonl(sessions).trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const child = JSON.parse(lines[1]!) as { messages: unknown[] };
    expect(child).toMatchObject({
      id: 's2',
      parent_session_id: 's1',
      end_reason: null,
      system_prompt: 'You are Hermes.',
      message_count: 3,
    });
    expect(child.messages[0]).toEqual({ id: 5, session_id: 's2', role: 'user', content: SUMMARY });
    expect((JSON.parse(lines[0]!) as { messages: unknown[] }).messages[3]).not.toHaveProperty('_flushed');
  });

  it('re-imports through the Hermes parser with lineage, segments and the summary marked', () => {
    const text = exportHermesSessionJsonl(sessions);
    const result = parseHermesSessionTranscript(text);
    expect(importTranscript(text).ok && importTranscript(text)).toEqual(result);
    if (!result.ok) throw new Error(result.error.message);
    const { messages, metadata } = result.value.transcript;
    const { _flushed: _dropped, ...lastRootMessage } = rootMessages[4]!;
    expect(messages).toEqual([...rootMessages.slice(0, 4), lastRootMessage, ...childMessages.slice(1)]);
    expect(metadata.lineage).toEqual([
      { sessionId: 's1', parentSessionId: null, endReason: 'compression', title: 'API' },
      { sessionId: 's2', parentSessionId: 's1', endReason: null, title: 'API #2' },
    ]);
    expect(metadata.segments?.map((segment) => segment.messageIndex)).toEqual([0, 5]);
    expect(metadata.compactionPoints).toMatchObject([{ kind: 'hermes-summary', messageIndex: 5, line: 2 }]);
    expect(metadata.startedAt).toBe('2025-09-11T14:13:20.000Z');
  });
});
