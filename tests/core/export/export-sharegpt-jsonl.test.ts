import { describe, expect, it } from 'vitest';
import { exportShareGptJsonl } from '#core/export/export-sharegpt-jsonl.ts';
import { importTranscript } from '#core/import/import-transcript.ts';
import type { Transcript } from '#core/transcript/transcript.ts';

/** A written line as these tests read it (every turn here is text). */
interface ShareGptLine {
  conversations: Array<{ from: string; value: string }>;
}

const transcript: Transcript = {
  messages: [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'What Python version is installed?' },
    {
      role: 'assistant',
      content: '',
      reasoning: 'I should run python3 --version.',
      tool_calls: [
        {
          id: 'call_a',
          type: 'function',
          function: { name: 'terminal', arguments: '{"command": "python3 --version"}' },
        },
        {
          id: 'call_b',
          type: 'function',
          function: { name: 'terminal', arguments: '{"command": "which python3"}' },
        },
      ],
    },
    { role: 'tool', tool_call_id: 'call_a', content: '{"output": "Python 3.11.6", "exit_code": 0}' },
    { role: 'tool', tool_call_id: 'call_b', content: '/usr/bin/python3' },
    { role: 'assistant', content: 'Python 3.11.6 is installed.' },
  ],
  metadata: {
    format: 'anthropic-messages',
    model: 'claude-sonnet-4-5',
    compactionPoints: [],
    tools: [
      {
        name: 'terminal',
        description: 'Run a command',
        input_schema: { type: 'object', properties: { command: { type: 'string' } } },
      },
    ],
  },
};

describe('exportShareGptJsonl', () => {
  it('writes a Hermes trajectory line that re-imports with the same turns and tool pairing', () => {
    const text = exportShareGptJsonl(transcript, { timestampIso: '2026-05-01T10:00:00', completed: true });
    const line = JSON.parse(text) as ShareGptLine;
    expect(line).toMatchObject({
      timestamp: '2026-05-01T10:00:00',
      model: 'claude-sonnet-4-5',
      completed: true,
    });
    expect(line.conversations.map((turn) => turn.from)).toEqual(['system', 'human', 'gpt', 'tool', 'gpt']);
    expect(line.conversations[0]!.value).toContain('"name": "terminal"');

    const again = importTranscript(text);
    if (!again.ok) throw new Error(again.error.message);
    const { messages, metadata } = again.value.transcript;
    expect(again.value.format).toBe('sharegpt');
    expect(messages.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
    expect(messages[2]!.reasoning).toBe('I should run python3 --version.');
    expect(messages[2]!.tool_calls!.map((call) => [call.function.name, call.function.arguments])).toEqual([
      ['terminal', '{"command":"python3 --version"}'],
      ['terminal', '{"command":"which python3"}'],
    ]);
    expect(messages.slice(3, 5).map((message) => message.tool_call_id)).toEqual(
      messages[2]!.tool_calls!.map((call) => call.id),
    );
    expect(messages[5]!.content).toBe('Python 3.11.6 is installed.');
    expect(metadata.tools).toEqual([
      {
        name: 'terminal',
        description: 'Run a command',
        parameters: { type: 'object', properties: { command: { type: 'string' } } },
        required: null,
      },
    ]);
  });

  it('writes a transcript imported from several ShareGPT conversations back as several lines', () => {
    const source = ['first', 'second'].map((word) =>
      JSON.stringify({
        conversations: [
          { from: 'human', value: `say ${word}` },
          { from: 'gpt', value: word },
        ],
      }),
    );
    const imported = importTranscript(source.join('\n'));
    if (!imported.ok) throw new Error(imported.error.message);
    const lines = exportShareGptJsonl(imported.value.transcript).trimEnd().split('\n');
    expect(
      lines.map((line) =>
        (JSON.parse(line) as ShareGptLine).conversations.slice(1).map((turn) => turn.value),
      ),
    ).toEqual([
      ['say first', '<think>\n</think>\nfirst'],
      ['say second', '<think>\n</think>\nsecond'],
    ]);
  });
});
