import { describe, expect, it } from 'vitest';
import { deterministicFallbackSummary, legacyFallbackSummary } from '#core/compression/fallback-summary.ts';
import { SUMMARY_PREFIX_2026_04, SUMMARY_PREFIX_2026_07 } from '#core/compression/markers.ts';
import { assistant, toolCall, toolResult, user } from './message-builders.ts';
import { HERMES_2026_04 } from '#core/presets/hermes-2026-04.ts';
import { HERMES_2026_07 } from '#core/presets/hermes-2026-07.ts';

describe('legacyFallbackSummary', () => {
  it('is the static 2026-04 note naming the dropped count', () => {
    expect(legacyFallbackSummary(8, HERMES_2026_04)).toBe(
      `${SUMMARY_PREFIX_2026_04}\nSummary generation was unavailable. 8 conversation turns were removed to free context space but could not be summarized. The removed turns contained earlier work in this session. Continue based on the recent messages below and the current state of any files or resources.`,
    );
  });
});

describe('deterministicFallbackSummary', () => {
  const turns = [
    user('please fix   the\nbuild'),
    assistant('', [toolCall('c1', 'terminal', { command: 'make', workdir: '/repo' })]),
    toolResult('c1', 'Error: missing header /repo/include/a.h'),
    assistant('I will add the header.'),
  ];

  it('builds the structured handoff from the dropped turns', () => {
    const summary = deterministicFallbackSummary(turns, 'RuntimeError: down', HERMES_2026_07);
    expect(
      summary.startsWith(
        `${SUMMARY_PREFIX_2026_07}\n## Historical Task Snapshot\nUser asked: 'please fix the build'\n`,
      ),
    ).toBe(true);
    expect(summary).toContain(
      '## Completed Actions\n1. Called tool(s): terminal\n2. I will add the header.\n3. [terminal] ran `make`',
    );
    expect(summary).toContain('## Blocked\n- Error: missing header /repo/include/a.h');
    expect(summary).toContain('## Relevant Files\n- /repo\n- /repo/include/a.h');
    expect(summary).toContain(
      '## Last Dropped Turns\n- USER: please fix the build\n- ASSISTANT: tool calls: terminal\n- TOOL: Error',
    );
    expect(summary.endsWith('for 4 compacted message(s). Summary failure reason: RuntimeError: down.')).toBe(
      true,
    );
  });

  it('says the task is unknown when no user spoke', () => {
    expect(deterministicFallbackSummary([assistant('hi')], null, HERMES_2026_07)).toContain(
      '## Historical Task Snapshot\nUnknown from deterministic fallback.\n',
    );
  });

  it('redacts GitHub tokens and caps the result at 8000 characters', () => {
    const long = Array.from({ length: 40 }, (_, i) =>
      user(`ask ${i} ghp_${'a'.repeat(30)} ${'z'.repeat(690)}`),
    );
    const summary = deterministicFallbackSummary(long, null, HERMES_2026_07);
    expect(summary).not.toContain('a'.repeat(30));
    expect(summary.length).toBeLessThanOrEqual(8000);
    expect(summary.endsWith('\n...[fallback summary truncated]')).toBe(true);
  });
});
