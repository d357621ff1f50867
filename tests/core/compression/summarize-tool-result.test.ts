import { describe, expect, it } from 'vitest';
import { adapter } from '#cli/conformance/adapters/tool_result_one_liners.ts';
import { summarizeToolResult } from '#core/compression/summarize-tool-result.ts';
import { ALL_PRESETS } from '#core/presets/preset.ts';
import { hermesVectorRuns, runAdapter } from '../shared/load-hermes-vectors.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

describe('summarizeToolResult', () => {
  it.each(hermesVectorRuns('tool_result_one_liners.json'))('matches the Hermes vector $name', (run) => {
    expect(runAdapter(adapter, run)).toBe(run.expected);
  });

  const line = (tool: string, args: string, content: string, preset = HERMES_2026_04): string => {
    const result = summarizeToolResult(tool, args, content, preset);
    if (!result.ok) throw new Error(`refused: ${result.error.exception}`);
    return result.value;
  };

  // 2026-04 raised on these; the exception lines are Python 3.11's for the legacy code.
  it.each([
    [
      'web_extract',
      '{"urls": [{"url": "https://a"}, "https://b"]}',
      "TypeError: unsupported operand type(s) for +=: 'dict' and 'str'",
    ],
    ['web_extract', '{"urls": [7, "b"]}', "TypeError: unsupported operand type(s) for +=: 'int' and 'str'"],
    [
      'web_extract',
      '{"urls": [null, "b"]}',
      "TypeError: unsupported operand type(s) for +=: 'NoneType' and 'str'",
    ],
    ['terminal', '{"command": true}', "TypeError: object of type 'bool' has no len()"],
    ['terminal', '{"command": null}', "TypeError: object of type 'NoneType' has no len()"],
    ['terminal', '[1, 2]', "AttributeError: 'list' object has no attribute 'get'"],
    ['terminal', '"ls"', "AttributeError: 'str' object has no attribute 'get'"],
    [
      'terminal',
      `{"command": [${Array(90).fill(1).join(',')}]}`,
      'TypeError: can only concatenate list (not "str") to list',
    ],
    ['delegate_task', '{"goal": 3.5}', "TypeError: object of type 'float' has no len()"],
    [
      'write_file',
      '{"path": "a", "content": {"a": 1}}',
      "AttributeError: 'dict' object has no attribute 'count'",
    ],
    ['write_file', '{"path": "a", "content": 5}', "AttributeError: 'int' object has no attribute 'count'"],
    ['execute_code', '{"code": 5}', "TypeError: 'int' object is not subscriptable"],
    ['execute_code', '{"code": null}', "TypeError: object of type 'NoneType' has no len()"],
    ['execute_code', '{"code": false}', "TypeError: object of type 'bool' has no len()"],
    ['execute_code', '{"code": ["a"]}', "AttributeError: 'list' object has no attribute 'replace'"],
    ['execute_code', '{"code": {"a": 1}}', "TypeError: unhashable type: 'slice'"],
    ['vision_analyze', '{"question": 5}', "TypeError: 'int' object is not subscriptable"],
    ['memory', '[1]', "AttributeError: 'list' object has no attribute 'get'"],
    ['my_tool', '"just a string"', "AttributeError: 'str' object has no attribute 'items'"],
    ['my_tool', '5', "AttributeError: 'int' object has no attribute 'items'"],
  ])('2026-04 refuses %s %s as Hermes raised, and 2026-07 gives a line', (tool, args, exception) => {
    expect(summarizeToolResult(tool, args, 'x'.repeat(1234), HERMES_2026_04)).toEqual({
      ok: false,
      error: { type: 'HermesRaised', function: '_summarize_tool_result', exception },
    });
    expect(line(tool, args, 'x'.repeat(1234), HERMES_2026_07).startsWith(`[${tool}]`)).toBe(true);
  });

  it('2026-04 survives the odd values Python survived', () => {
    expect(line('execute_code', '{"code": []}', 'x')).toBe('[execute_code] `` (1 lines output)');
    expect(line('execute_code', '{}', 'x')).toBe('[execute_code] `` (1 lines output)');
    expect(line('write_file', '{"path": "a", "content": ["\\n", "a"]}', 'x')).toBe(
      '[write_file] wrote to a (2 lines)',
    );
    expect(line('vision_analyze', '{"question": ["a", "b"]}', 'x')).toBe(
      "[vision_analyze] '['a', 'b']' (1 chars)",
    );
    expect(line('web_extract', '{"urls": [["x"], "b"]}', 'e')).toBe(
      "[web_extract] ['x', ' ', '(', '+', '1', ' ', 'm', 'o', 'r', 'e', ')'] (1 chars)",
    );
    expect(line('todo', '[1]', 'x')).toBe('[todo] updated task list');
  });

  it('2026-07 turns anything that would still raise into its exception line', () => {
    for (const preset of ALL_PRESETS.filter((candidate) => candidate.pruning.oneLiners === 'guarded')) {
      expect(line('my_tool', '"just a string"', 'x'.repeat(1234), preset)).toBe(
        '[my_tool] (1,234 chars result)',
      );
    }
  });

  it('formats the content length with thousands separators and counts code points', () => {
    expect(line('patch', '{"path": "a.py"}', '🙂'.repeat(3400), HERMES_2026_07)).toBe(
      '[patch] replace in a.py (3,400 chars result)',
    );
  });

  it('keeps the argument order of the JSON for the generic line, even for integer-like keys', () => {
    expect(line('custom', '{"b": 1.0, "2": [true, null], "c": 3}', 'abc', HERMES_2026_07)).toBe(
      '[custom] b=1.0 2=[True, None] (3 chars result)',
    );
  });

  it('finds the exit code after Unicode whitespace and ignores a non-numeric first match', () => {
    const content = '"exit_code": none\n"exit_code"\u3000:\t-3';
    expect(line('terminal', '{"command": "ls"}', content, HERMES_2026_07)).toBe(
      '[terminal] ran `ls` -> exit -3, 2 lines output',
    );
  });

  it('reports zero lines for whitespace-only output', () => {
    expect(line('terminal', '{"command": "ls"}', ' \n\u3000 ', HERMES_2026_04)).toBe(
      '[terminal] ran `ls` -> exit ?, 0 lines output',
    );
  });

  it('prints a raw dict URL in 2026-04 and unwraps it in 2026-07', () => {
    const args = '{"urls": [{"href": "https://h"}]}';
    expect(line('web_extract', args, 'e', HERMES_2026_04)).toBe(
      "[web_extract] {'href': 'https://h'} (1 chars)",
    );
    expect(line('web_extract', args, 'e', HERMES_2026_07)).toBe('[web_extract] https://h (1 chars)');
  });
});
