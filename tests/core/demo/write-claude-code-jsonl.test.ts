import { describe, expect, it } from 'vitest';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import {
  claudeCodeJsonlLines,
  claudeCodeRecordUuid,
  toClaudeCodeJsonl,
} from '#core/demo/write-claude-code-jsonl.ts';
import { safeParseJson } from '#core/shared/safe-parse-json.ts';
import type { Transcript } from '#core/transcript/transcript.ts';

const options = { sessionId: 'session-under-test', startIso: '2025-01-14T09:00:00.000Z' };

interface ParsedRecord {
  type: string;
  uuid: string;
  parentUuid: string | null;
  sessionId: string;
  timestamp: string;
  cwd: string;
  message: { role: string; id?: string; content: unknown };
}

function parseLines(text: string): ParsedRecord[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const parsed = safeParseJson(line);
      expect(parsed.ok).toBe(true);
      return (parsed as { ok: true; value: ParsedRecord }).value;
    });
}

const blocksOf = (record: ParsedRecord): { type: string; [key: string]: unknown }[] =>
  Array.isArray(record.message.content)
    ? (record.message.content as { type: string; [key: string]: unknown }[])
    : [];

describe('toClaudeCodeJsonl', () => {
  const transcript = generateAgentTranscript({ messageCount: 400, seed: 11 });
  const text = toClaudeCodeJsonl(transcript, options);
  const records = parseLines(text);

  it('writes one valid JSON record per line, newline-terminated', () => {
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n').length - 1).toBe(records.length);
  });

  it('writes only user and assistant records, with the fields Claude Code writes', () => {
    for (const record of records) {
      expect(['user', 'assistant']).toContain(record.type);
      expect(record.message.role).toBe(record.type);
      expect(record.sessionId).toBe(options.sessionId);
      expect(record.cwd).toMatch(/^\//);
      expect(Number.isNaN(Date.parse(record.timestamp))).toBe(false);
    }
  });

  it('chains records through parentUuid with unique uuids and increasing timestamps', () => {
    expect(records[0]?.parentUuid).toBeNull();
    records.slice(1).forEach((record, index) => {
      expect(record.parentUuid).toBe(records[index]?.uuid);
      expect(record.timestamp >= records[index]!.timestamp).toBe(true);
    });
    expect(new Set(records.map((record) => record.uuid)).size).toBe(records.length);
    expect(claudeCodeRecordUuid(options.sessionId, records.length - 1)).toBe(records.at(-1)?.uuid);
  });

  it('writes assistant blocks as text and tool_use {id, name, input}, and results as tool_result blocks', () => {
    const toolUses = records.flatMap(blocksOf).filter((block) => block.type === 'tool_use');
    const toolResults = records.flatMap(blocksOf).filter((block) => block.type === 'tool_result');
    expect(toolUses.length).toBe(transcript.messages.filter((message) => message.role === 'tool').length);
    expect(toolResults.map((block) => block.tool_use_id)).toEqual(toolUses.map((block) => block.id));
    for (const block of toolUses) {
      expect(typeof block.name).toBe('string');
      expect(block.input).toBeTypeOf('object');
    }
    const toolResultRecords = records.filter((record) =>
      blocksOf(record).some((block) => block.type === 'tool_result'),
    );
    for (const record of toolResultRecords) expect(record.type).toBe('user');
    expect(records.flatMap(blocksOf).some((block) => block.type === 'text')).toBe(true);
  });

  it('gives the blocks of one assistant message the same message id', () => {
    const assistantMessages = transcript.messages.filter((message) => message.role === 'assistant');
    const ids = new Set(
      records.filter((record) => record.type === 'assistant').map((record) => record.message.id),
    );
    expect(ids.size).toBe(assistantMessages.length);
  });

  it('leaves out the system prompt and keeps user prompts as plain strings', () => {
    const prompts = records.filter(
      (record) => record.type === 'user' && typeof record.message.content === 'string',
    );
    expect(prompts.length).toBe(transcript.messages.filter((message) => message.role === 'user').length);
    expect(text).not.toContain(JSON.stringify(transcript.metadata.systemPrompt).slice(1, 80));
  });

  it('streams the same lines it joins', () => {
    expect([...claudeCodeJsonlLines(transcript, options)].join('\n') + '\n').toBe(text);
  });

  it('continues a session when given the next record index and parent uuid', () => {
    const second = generateAgentTranscript({ messageCount: 50, seed: 12 });
    const continued = parseLines(
      toClaudeCodeJsonl(second, {
        ...options,
        firstRecordIndex: records.length,
        parentUuid: records.at(-1)!.uuid,
      }),
    );
    expect(continued[0]?.parentUuid).toBe(records.at(-1)?.uuid);
    const allUuids = new Set([...records, ...continued].map((record) => record.uuid));
    expect(allUuids.size).toBe(records.length + continued.length);
  });

  it('keeps unparseable tool arguments as raw text and rejects a bad start time', () => {
    const broken: Transcript = {
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'terminal', arguments: '{"command": ' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', name: 'terminal', content: 'ok' },
      ],
      metadata: { format: 'internal', compactionPoints: [] },
    };
    const [, toolUse] = parseLines(toClaudeCodeJsonl(broken, options));
    expect(blocksOf(toolUse!)[0]).toMatchObject({ type: 'tool_use', input: { raw: '{"command": ' } });
    expect(() => toClaudeCodeJsonl(broken, { ...options, startIso: 'yesterday' })).toThrow(RangeError);
  });
});
