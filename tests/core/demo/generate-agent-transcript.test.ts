import { describe, expect, it } from 'vitest';
import { generateAgentTranscript } from '#core/demo/generate-agent-transcript.ts';
import { safeParseJson } from '#core/shared/safe-parse-json.ts';
import type { Message } from '#core/transcript/message.ts';

/** SPEC §7: 10,000 generated messages are about 25 MB of JSON. */
const BYTES_PER_10K_MESSAGES = 25_000_000;

function expectCompleteToolGroups(messages: readonly Message[]): void {
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'tool') {
      // Every result belongs to the nearest preceding assistant message with calls.
      let owner = index - 1;
      while (messages[owner]?.role === 'tool') owner--;
      const ids = messages[owner]?.tool_calls?.map((call) => call.id) ?? [];
      expect(ids).toContain(message.tool_call_id);
    }
    if (message.role !== 'assistant' || !message.tool_calls) continue;
    message.tool_calls.forEach((call, offset) => {
      const result = messages[index + 1 + offset];
      expect(result?.role).toBe('tool');
      expect(result?.tool_call_id).toBe(call.id);
      expect(result?.name).toBe(call.function.name);
    });
  }
}

describe('generateAgentTranscript', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const first = JSON.stringify(generateAgentTranscript({ messageCount: 500, seed: 7 }));
    expect(JSON.stringify(generateAgentTranscript({ messageCount: 500, seed: 7 }))).toBe(first);
    expect(JSON.stringify(generateAgentTranscript({ messageCount: 500, seed: 8 }))).not.toBe(first);
  });

  it('returns exactly messageCount messages, for every count from 0 to 60', () => {
    for (let messageCount = 0; messageCount <= 60; messageCount++) {
      const { messages } = generateAgentTranscript({ messageCount, seed: messageCount });
      expect(messages).toHaveLength(messageCount);
      expectCompleteToolGroups(messages);
      if (messageCount > 0) expect(messages[0]?.role).toBe('system');
      // Never ends with an assistant message whose calls have no results.
      expect(messages.at(-1)?.tool_calls).toBeUndefined();
    }
  });

  it('keeps tool calls and results paired one to one', () => {
    const { messages } = generateAgentTranscript({ messageCount: 3_000, seed: 3 });
    expectCompleteToolGroups(messages);
    const callIds = messages.flatMap((message) => message.tool_calls?.map((call) => call.id) ?? []);
    const resultIds = messages
      .filter((message) => message.role === 'tool')
      .map((message) => message.tool_call_id);
    expect(new Set(callIds).size).toBe(callIds.length);
    expect(resultIds).toEqual(callIds);
  });

  it('writes valid JSON arguments and results for every tool call', () => {
    const { messages } = generateAgentTranscript({ messageCount: 2_000, seed: 4 });
    for (const message of messages) {
      for (const call of message.tool_calls ?? [])
        expect(safeParseJson(call.function.arguments).ok).toBe(true);
      if (message.role === 'tool') expect(safeParseJson(message.content as string).ok).toBe(true);
    }
  });

  it('mixes the six tools, parallel calls, prose, repeated reads and rare 100 KB outputs', () => {
    const { messages } = generateAgentTranscript({ messageCount: 6_000, seed: 5 });
    const toolNames = new Set(
      messages.flatMap((message) => message.tool_calls?.map((call) => call.function.name) ?? []),
    );
    expect(toolNames).toEqual(
      new Set(['terminal', 'read_file', 'search_files', 'patch', 'write_file', 'web_search']),
    );
    expect(messages.some((message) => (message.tool_calls?.length ?? 0) >= 3)).toBe(true);
    expect(messages.filter((message) => message.role === 'user').length).toBeGreaterThan(100);

    const results = messages
      .filter((message) => message.role === 'tool')
      .map((message) => message.content as string);
    const huge = results.filter((content) => content.length >= 90_000).length;
    // About one in 200 results; generous bounds, it is random.
    expect(huge).toBeGreaterThanOrEqual(results.length / 400);
    expect(huge).toBeLessThanOrEqual(results.length / 100);
    expect(results.some((content) => content.length < 200)).toBe(true);

    const seen = new Set<string>();
    let duplicates = 0;
    for (const content of results) {
      if (content.length >= 200 && seen.has(content)) duplicates++;
      seen.add(content);
    }
    expect(duplicates).toBeGreaterThan(20);
  });

  it('comes to about 25 MB of JSON per 10,000 messages (checked on 2,000, scaled)', () => {
    for (const seed of [1, 2]) {
      const { messages } = generateAgentTranscript({ messageCount: 2_000, seed });
      const bytes = JSON.stringify(messages).length;
      const expected = (BYTES_PER_10K_MESSAGES * 2_000) / 10_000;
      expect(bytes).toBeGreaterThan(expected * 0.8);
      expect(bytes).toBeLessThan(expected * 1.2);
    }
  });

  it('rejects a negative or fractional message count', () => {
    expect(() => generateAgentTranscript({ messageCount: -1, seed: 1 })).toThrow(RangeError);
    expect(() => generateAgentTranscript({ messageCount: 2.5, seed: 1 })).toThrow(RangeError);
  });

  it('describes itself in the metadata', () => {
    const { metadata } = generateAgentTranscript({ messageCount: 10, seed: 9 });
    expect(metadata.format).toBe('internal');
    expect(metadata.compactionPoints).toEqual([]);
    expect(metadata.tools).toHaveLength(6);
    expect(metadata.title).toContain('seed 9');
  });
});
