import { describe, expect, it } from 'vitest';
import { buildDemoTranscript } from '#core/demo/demo-transcript.ts';
import { safeParseJson } from '#core/shared/safe-parse-json.ts';
import type { Message } from '#core/transcript/message.ts';

const transcript = buildDemoTranscript();
const { messages } = transcript;

const contentText = (message: Message): string =>
  typeof message.content === 'string' ? message.content : '';
const argumentsText = (message: Message): string =>
  (message.tool_calls ?? []).map((call) => call.function.arguments).join('');

/** The brief's rough estimate: characters of message text and tool arguments / 4. */
const textTokens = Math.ceil(
  messages.reduce((sum, message) => sum + contentText(message).length + argumentsText(message).length, 0) / 4,
);
/** Hermes' own rough estimate is len(str(message)) / 4; JSON is the closest JS analogue. */
const jsonTokens = Math.ceil(messages.reduce((sum, message) => sum + JSON.stringify(message).length, 0) / 4);

describe('buildDemoTranscript', () => {
  it('is deterministic', () => {
    expect(JSON.stringify(buildDemoTranscript())).toBe(JSON.stringify(transcript));
  });

  it('returns a fresh transcript on every call, so callers may mutate it', () => {
    const other = buildDemoTranscript();
    expect(other).not.toBe(transcript);
    expect(other.messages).not.toBe(messages);
  });

  it('has between 40 and 50 messages, starting with the system prompt and ending with an unanswered user message', () => {
    expect(messages.length).toBeGreaterThanOrEqual(40);
    expect(messages.length).toBeLessThanOrEqual(50);
    expect(messages[0]?.role).toBe('system');
    expect(messages[0]?.content).toBe(transcript.metadata.systemPrompt);
    expect(messages[1]?.role).toBe('user');
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'Great, also add error handling' });
  });

  it('is about 95K tokens by Hermes-style rough estimates', () => {
    // JSON of each message is the closest analogue of Hermes' len(str(message)) / 4.
    expect(jsonTokens).toBeGreaterThanOrEqual(90_000);
    expect(jsonTokens).toBeLessThanOrEqual(100_000);
    // Counting only message text and tool arguments leaves out keys and escapes.
    expect(textTokens).toBeGreaterThanOrEqual(80_000);
    expect(textTokens).toBeLessThanOrEqual(100_000);
  });

  it('follows every assistant tool call with exactly its results, in order, and nothing else', () => {
    const callIds = new Set<string>();
    for (let index = 0; index < messages.length; index++) {
      const message = messages[index]!;
      if (message.role !== 'assistant' || !message.tool_calls) continue;
      message.tool_calls.forEach((call, offset) => {
        const result = messages[index + 1 + offset]!;
        expect(result.role).toBe('tool');
        expect(result.tool_call_id).toBe(call.id);
        expect(result.name).toBe(call.function.name);
        expect(callIds.has(call.id)).toBe(false);
        callIds.add(call.id);
      });
    }
    const resultIds = messages
      .filter((message) => message.role === 'tool')
      .map((message) => message.tool_call_id);
    expect(resultIds).toHaveLength(callIds.size);
    expect(new Set(resultIds)).toEqual(callIds);
  });

  it('alternates roles sensibly', () => {
    for (let index = 1; index < messages.length; index++) {
      const previous = messages[index - 1]!;
      const current = messages[index]!;
      if (current.role === 'user') {
        expect(previous.role === 'system' || (previous.role === 'assistant' && !previous.tool_calls)).toBe(
          true,
        );
      }
      if (current.role === 'tool') expect(['assistant', 'tool']).toContain(previous.role);
      if (current.role === 'assistant') expect(['user', 'tool']).toContain(previous.role);
      expect(current.role).not.toBe('system');
    }
  });

  it('has tool arguments that are valid JSON objects with the fields Hermes summarises', () => {
    const requiredFields: Record<string, string[]> = {
      terminal: ['command'],
      read_file: ['path', 'offset'],
      write_file: ['path', 'content'],
      search_files: ['pattern', 'target', 'path'],
      patch: ['mode', 'path', 'old_string', 'new_string'],
    };
    const calls = messages.flatMap((message) => message.tool_calls ?? []);
    expect(new Set(calls.map((call) => call.function.name))).toEqual(new Set(Object.keys(requiredFields)));
    for (const call of calls) {
      const parsed = safeParseJson(call.function.arguments);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) continue;
      expect(Object.keys(parsed.value as object)).toEqual(
        expect.arrayContaining(requiredFields[call.function.name]!),
      );
    }
  });

  it('has tool results in Hermes JSON style, with exit codes and match counts where the one-liners look', () => {
    for (const message of messages.filter((candidate) => candidate.role === 'tool')) {
      expect(safeParseJson(contentText(message)).ok).toBe(true);
      if (message.name === 'terminal') expect(contentText(message)).toMatch(/"exit_code": -?\d+/);
      if (message.name === 'search_files') expect(contentText(message)).toMatch(/^\{"total_count": \d+/);
      if (message.name === 'read_file') expect(contentText(message)).toContain('"content": "     1|');
    }
  });

  it('makes parallel tool calls in some assistant messages', () => {
    expect(messages.some((message) => (message.tool_calls?.length ?? 0) >= 2)).toBe(true);
  });

  it('contains one large tool output duplicated (the same file read twice) so deduplication has work', () => {
    const counts = new Map<string, number>();
    for (const message of messages.filter((candidate) => candidate.role === 'tool')) {
      const content = contentText(message);
      if (content.length >= 200) counts.set(content, (counts.get(content) ?? 0) + 1);
    }
    const duplicated = [...counts].filter(([, count]) => count > 1);
    expect(duplicated).toHaveLength(1);
    expect(duplicated[0]![0].length).toBeGreaterThan(10_000);
  });

  it('has a ~12 KB failing test log, a ~5 KB one and large write_file arguments', () => {
    const terminalOutputs = messages
      .filter((message) => message.name === 'terminal')
      .map(
        (message) =>
          (safeParseJson(contentText(message)) as { ok: true; value: { output: string } }).value.output,
      );
    const failingLogs = terminalOutputs.filter((output) => output.includes('= FAILURES ='));
    expect(failingLogs.map((log) => Math.round(log.length / 1000))).toEqual([11, 5]);
    const largestWrite = Math.max(
      ...messages.flatMap((message) =>
        (message.tool_calls ?? [])
          .filter((call) => call.function.name === 'write_file')
          .map((call) => call.function.arguments.length),
      ),
    );
    expect(largestWrite).toBeGreaterThan(20_000);
  });

  it('describes itself in the metadata', () => {
    const { metadata } = transcript;
    expect(metadata.format).toBe('internal');
    expect(metadata.title).toBe('Demo: FastAPI project with tests');
    expect(metadata.model).toBe('claude-sonnet-4-6');
    expect(metadata.compactionPoints).toEqual([]);
    expect(metadata.tools?.map((tool) => (tool.function as { name: string }).name)).toEqual([
      'terminal',
      'read_file',
      'write_file',
      'search_files',
      'patch',
    ]);
  });
});
