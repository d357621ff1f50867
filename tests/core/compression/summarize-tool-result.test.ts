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

  it.each([
    ['web_extract', '{"urls": [{"url": "https://a"}, "https://b"]}'],
    ['terminal', '{"command": true}'],
    ['terminal', '[1, 2]'],
    ['execute_code', '{"code": 5}'],
    ['my_tool', '"just a string"'],
  ])('returns a line for %s %s in every preset instead of throwing', (tool, args) => {
    for (const preset of ALL_PRESETS) {
      expect(summarizeToolResult(tool, args, 'x'.repeat(1234), preset).startsWith(`[${tool}]`)).toBe(true);
    }
  });

  it('uses the 2026-07 fallback where 2026-04 crashed on a dict URL with more URLs', () => {
    expect(
      summarizeToolResult('web_extract', '{"urls": [{"url": "https://a"}, "b"]}', 'xx', HERMES_2026_04),
    ).toBe('[web_extract] (2 chars result)');
  });

  it('formats the content length with thousands separators and counts code points', () => {
    expect(summarizeToolResult('patch', '{"path": "a.py"}', '🙂'.repeat(3400), HERMES_2026_07)).toBe(
      '[patch] replace in a.py (3,400 chars result)',
    );
  });

  it('keeps the argument order of the JSON for the generic line, even for integer-like keys', () => {
    expect(
      summarizeToolResult('custom', '{"b": 1.0, "2": [true, null], "c": 3}', 'abc', HERMES_2026_07),
    ).toBe('[custom] b=1.0 2=[True, None] (3 chars result)');
  });

  it('finds the exit code after Unicode whitespace and ignores a non-numeric first match', () => {
    const content = '"exit_code": none\n"exit_code"\u3000:\t-3';
    expect(summarizeToolResult('terminal', '{"command": "ls"}', content, HERMES_2026_07)).toBe(
      '[terminal] ran `ls` -> exit -3, 2 lines output',
    );
  });

  it('reports zero lines for whitespace-only output', () => {
    expect(summarizeToolResult('terminal', '{"command": "ls"}', ' \n\u3000 ', HERMES_2026_04)).toBe(
      '[terminal] ran `ls` -> exit ?, 0 lines output',
    );
  });

  it('prints a raw dict URL in 2026-04 and unwraps it in 2026-07', () => {
    const args = '{"urls": [{"href": "https://h"}]}';
    expect(summarizeToolResult('web_extract', args, 'e', HERMES_2026_04)).toBe(
      "[web_extract] {'href': 'https://h'} (1 chars)",
    );
    expect(summarizeToolResult('web_extract', args, 'e', HERMES_2026_07)).toBe(
      '[web_extract] https://h (1 chars)',
    );
  });
});
