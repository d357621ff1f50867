import { describe, expect, it } from 'vitest';
import { importTranscript } from '#core/import/import-transcript.ts';

/** JSON text of an object nested `levels` deep: `{"a":{"a":…1…}}`. */
const deepJson = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

const LEVELS = 20_000;

describe('values nested too deeply to keep', () => {
  it('replaces deep tool arguments by {} and says where and how deep', () => {
    const text = `{"messages":[{"role":"user","content":"go"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"run","arguments":${deepJson(LEVELS)}}}]},{"role":"tool","tool_call_id":"c1","content":"ok"}]}`;
    const result = importTranscript(text);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.transcript.messages[1]!.tool_calls![0]!.function.arguments).toBe('{}');
    expect(result.value.warnings).toContainEqual({
      kind: 'repaired',
      path: '$.messages[1].tool_calls[0].function.arguments',
      reason: `nests ${LEVELS.toLocaleString('en-US')} levels deep, more than JSON can be written from; replaced by {}`,
    });
  });

  it('names the path of a deep Anthropic tool input', () => {
    const text = `{"system":"s","messages":[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"run","input":${deepJson(LEVELS)}}]}]}`;
    const result = importTranscript(text);
    expect(result.ok && result.value.warnings).toContainEqual(
      expect.objectContaining({ kind: 'repaired', path: '$.messages[1].content[0].input' }),
    );
  });

  it('warns about a deep extra key of a call and a deep tool schema instead of dropping them silently', () => {
    const text = `{"session_id":"s1","tools":[{"type":"function","function":{"name":"ok"}},${deepJson(100)}],"messages":[{"role":"user","content":"go"},{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"run","arguments":"{}"},"extra":${deepJson(100)}}]},{"role":"tool","tool_call_id":"c1","content":"ok"}]}`;
    const result = importTranscript(text);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.transcript.metadata.tools).toHaveLength(1);
    expect(result.value.warnings).toEqual(
      expect.arrayContaining([
        { kind: 'skipped-part', path: '$.tools[1]', reason: 'nests deeper than 64 levels; dropped' },
        {
          kind: 'skipped-part',
          path: '$.messages[1].tool_calls[0].extra',
          reason: 'nests too deeply to keep; dropped',
        },
      ]),
    );
  });
});
