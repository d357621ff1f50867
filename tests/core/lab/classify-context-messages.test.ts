import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importTranscript } from '#core/import/import-transcript.ts';
import { classifyContextMessages } from '#core/lab/classify-context-messages.ts';
import type { Message } from '#core/transcript/message.ts';

const call = (id: string, name: string, args: string) => ({
  id,
  type: 'function' as const,
  function: { name, arguments: args },
});

describe('classifyContextMessages', () => {
  it('tells the system prompt, user, assistant and other roles apart', () => {
    const messages: Message[] = [
      { role: 'system', content: 'Be brief.' },
      { role: 'developer', content: 'House rules.' },
      { role: 'user', content: 'fix the bug' },
      { role: 'assistant', content: 'done' },
      { role: 'critic', content: 'meh' },
    ];
    expect(classifyContextMessages(messages).map((entry) => entry.kind)).toEqual([
      'system',
      'system',
      'user',
      'assistant',
      'other',
    ]);
  });

  it('names a tool result by its own name, else by the call it answers', () => {
    const messages: Message[] = [
      { role: 'assistant', content: '', tool_calls: [call('c1', 'Read', '{}'), call('c2', 'Bash', '{}')] },
      { role: 'tool', tool_call_id: 'c1', content: 'file text' },
      { role: 'tool', tool_call_id: 'c2', name: 'terminal', content: 'ok' },
      { role: 'tool', tool_call_id: 'nobody', content: 'orphan' },
    ];
    expect(classifyContextMessages(messages).map(({ kind, tool }) => [kind, tool])).toEqual([
      ['assistant', ''],
      ['tool-result', 'Read'],
      ['tool-result', 'terminal'],
      ['tool-result', ''],
    ]);
  });

  it("measures a message's reasoning apart from the text a tokenizer reads", () => {
    const [entry] = classifyContextMessages([
      {
        role: 'assistant',
        content: 'ok',
        reasoning: 'think',
        tool_calls: [call('c1', 'Read', '{"path":"a"}')],
      },
    ]);
    // messageCountingText: 'assistant' + '\n' + 'ok' + '\n' + 'Read' + '\n' + '{"path":"a"}' = 9+1+2+1+4+1+12.
    expect(entry).toEqual({ kind: 'assistant', tool: '', reasoningChars: 5, otherChars: 30 });
  });

  it('finds summaries by flag, by any tool’s opening and by a compaction point', () => {
    const messages: Message[] = [
      { role: 'user', content: '[CONTEXT COMPACTION — REFERENCE ONLY] Earlier turns were compacted.' },
      { role: 'assistant', content: 'The summary so far.', _compressed_summary: true },
      {
        role: 'user',
        content: 'This session is being continued from a previous conversation that ran out of context.',
      },
      { role: 'user', content: 'Odd summary text the importer flagged' },
      { role: 'user', content: 'a real question' },
    ];
    const points = [{ messageIndex: 3, kind: 'claude-compact-summary' as const }];
    expect(classifyContextMessages(messages, points).map((entry) => entry.kind)).toEqual([
      'summary',
      'summary',
      'summary',
      'summary',
      'user',
    ]);
  });

  it("marks a Claude Code file's compact summary (corpus)", () => {
    const path = resolve(
      import.meta.dirname,
      '../../../../shared/corpus/transcripts/claude-code/agent-history__session_with_compaction.jsonl',
    );
    const imported = importTranscript(readFileSync(path, 'utf8'));
    if (!imported.ok) throw new Error(imported.error.message);
    const { messages, metadata } = imported.value.transcript;
    const kinds = classifyContextMessages(messages, metadata.compactionPoints).map((entry) => entry.kind);
    // Message 8 is the file's "Previous conversation summary: …" record, after the compact boundary.
    expect(kinds.indexOf('summary')).toBe(8);
    expect(kinds.filter((kind) => kind === 'summary')).toHaveLength(1);
    expect(kinds.filter((kind) => kind === 'tool-result')).toHaveLength(3);
  });
});
